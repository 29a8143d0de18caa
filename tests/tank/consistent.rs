//! The consistent search (`--method gac`) against the line search and brute force: its boards, its parts, symmetric boards, the published 8×8 boards, how far a stopped run got.

use super::*;

/// Every board of side n by the consistent search (`--method gac`), each reached once.
fn all_boards_gac(n: usize, givens: &[(usize, usize, u32)]) -> BTreeSet<Board> {
    let mut out = BTreeSet::new();
    let found = gac::search(n, None, givens, &[], |b| {
        assert!(out.insert(b.to_vec()), "a board reached twice");
        true
    });
    assert!(found.complete);
    assert_eq!(found.count as usize, out.len());
    out
}

/// The consistent search finds the very boards the line search finds on sides 2 to 6 (none,
/// none, the one of 4, the two of 5, the thirteen of 6), and each verifies.
#[test]
fn the_consistent_search_finds_the_line_searchs_boards() {
    for n in 2..=6 {
        let boards = all_boards_gac(n, &[]);
        assert_eq!(boards, all_boards_exact(n), "n = {n}");
        for b in &boards {
            verify(b, &[]).unwrap();
        }
    }
    assert_eq!(all_boards_gac(6, &[]).len(), 13);
}

/// Its parts (cubes K, K + N, ...) add up to the whole, each board in one part.
#[test]
fn the_parts_of_the_consistent_search_add_up_to_the_whole() {
    for (n, parts) in [(5, 3), (5, 7), (6, 4)] {
        let mut boards = BTreeSet::new();
        let mut total = 0;
        for k in 0..parts {
            let found = gac::search(n, Some((k, parts)), &[], &[], |b| {
                assert!(boards.insert(b.to_vec()), "a board seen by two parts");
                true
            });
            assert!(found.complete);
            assert!(found.cubes >= parts);
            total += found.count;
        }
        assert_eq!(total as usize, boards.len());
        assert_eq!(boards, all_boards_exact(n), "n = {n}");
    }
}

/// On the boards a symmetry maps onto themselves (`--symmetry` with `--method gac`), the
/// consistent search finds exactly the line search's boards that the symmetry fixes (each
/// symmetry written out here as a map of boards), on sides 4 to 6; through the runner it
/// counts them with the scope said; and on 7×7, which has no board, it finds none.
#[test]
fn the_consistent_search_on_symmetric_boards_finds_the_symmetric_ones() {
    use quandary::geometry::Symmetry;
    let image = |g: Symmetry, b: &Board| -> Board {
        let n = b.len();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match g {
                        Symmetry::QuarterTurn => b[n - 1 - j][i],
                        Symmetry::HalfTurn => b[n - 1 - i][n - 1 - j],
                        Symmetry::Transpose => b[j][i],
                        Symmetry::Mirror => b[i][n - 1 - j],
                        _ => unreachable!("not a generator used here"),
                    })
                    .collect()
            })
            .collect()
    };
    let groups: [(Symmetric, &[Symmetry]); 5] = [
        (Symmetric::D4, &[Symmetry::Transpose, Symmetry::Mirror]),
        (Symmetric::Rot90, &[Symmetry::QuarterTurn]),
        (Symmetric::Rot180, &[Symmetry::HalfTurn]),
        (Symmetric::Diagonal, &[Symmetry::Transpose]),
        (Symmetric::Mirror, &[Symmetry::Mirror]),
    ];
    for n in 4..=6 {
        let all = all_boards_exact(n);
        for (group, generators) in groups {
            let want: BTreeSet<Board> = all
                .iter()
                .filter(|b| generators.iter().all(|&g| image(g, b) == **b))
                .cloned()
                .collect();
            let mut got = BTreeSet::new();
            let found = gac::search(n, None, &[], generators, |b| {
                assert!(got.insert(b.to_vec()), "a board reached twice");
                true
            });
            assert!(found.complete);
            assert!(!found.by_first_rows);
            assert_eq!(got, want, "n = {n}, {group:?}");
            let t = Tank::new(n as i64).unwrap();
            let counted = run::<TankAttack>(
                &t,
                &Options {
                    method: Method::Gac,
                    symmetry: Some(group),
                    ..Options::default()
                },
                Query::Count { cap: None },
                &Limits::none(),
            )
            .unwrap();
            let scope = counted
                .in_scope
                .as_ref()
                .expect("a count among symmetric boards only");
            assert_eq!(scope.count, Some(want.len() as u128), "n = {n}, {group:?}");
        }
    }
    // Half-turn symmetric: all thirteen of 6×6.
    assert_eq!(all_boards_exact(6).len(), 13);
    for generators in [&[Symmetry::QuarterTurn][..], &[Symmetry::Mirror]] {
        let found = gac::search(7, None, &[], generators, |_| true);
        assert!(found.complete);
        assert_eq!(found.count, 0, "{generators:?}");
    }
}

/// data/tank/8x8/boards.txt, the 8×8 boards published: each verifies, none twice, the set is
/// closed under the square's symmetries, and its mirror-symmetric boards are exactly those the
/// consistent search finds on the mirror-symmetric boards (recounted here).
#[test]
fn the_published_eight_by_eight_boards_verify_and_are_closed_under_symmetry() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/data/tank/8x8/boards.txt")).unwrap();
    let mut boards: Vec<Board> = Vec::new();
    let mut rows: Board = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            if !rows.is_empty() {
                boards.push(std::mem::take(&mut rows));
            }
            continue;
        }
        rows.push(
            line.split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect(),
        );
    }
    let set: BTreeSet<Board> = boards.iter().cloned().collect();
    assert_eq!(set.len(), boards.len(), "a board listed twice");
    assert!(set.len() >= 2);
    for b in &set {
        assert_eq!(b.len(), 8);
        verify(b, &[]).unwrap();
        for image in transforms(b) {
            assert!(set.contains(&image), "an image missing of {b:?}");
        }
    }
    let mirror: BTreeSet<Board> = set
        .iter()
        .filter(|b| b.iter().all(|r| (0..8).all(|j| r[j] == r[7 - j])))
        .cloned()
        .collect();
    let mut found = BTreeSet::new();
    let out = gac::search(8, None, &[], &[quandary::geometry::Symmetry::Mirror], |b| {
        found.insert(b.to_vec());
        true
    });
    assert!(out.complete);
    assert_eq!(found, mirror);
}

/// A complete run has searched every cube of its part; one stopped at its first board has not.
#[test]
fn the_consistent_search_says_how_far_it_got() {
    let whole = gac::search(5, None, &[], &[], |_| true);
    assert!(whole.complete);
    assert_eq!((whole.cubes, whole.cubes_done), (378, 378));
    let part = gac::search(5, Some((2, 7)), &[], &[], |_| true);
    assert_eq!(part.cubes_done, 54, "first rows 3, 10, ..., 374 of 378");
    let first = gac::search(6, None, &[], &[], |_| false);
    assert!(!first.complete);
    assert_eq!(first.count, 1);
    assert!(
        first.cubes_done < first.cubes,
        "{} of {}",
        first.cubes_done,
        first.cubes
    );
}

/// On 7×7 (no board at all), both searches refute the same givens; on 6×6 with givens, both
/// count the same boards (the thirteen that show them).
#[test]
fn the_consistent_search_agrees_with_the_line_search_under_givens() {
    let g7 = [
        (0, 0, 1),
        (0, 1, 3),
        (0, 2, 2),
        (1, 0, 3),
        (3, 3, 2),
        (4, 4, 1),
        (6, 6, 3),
        (2, 5, 2),
    ];
    for method in [Method::Gac, Method::Exact] {
        assert_eq!(count_with(7, &g7, method), (0, Status::Infeasible));
    }
    let all = all_boards_exact(6);
    for givens in [vec![(2, 2, 4)], vec![(0, 0, 2), (1, 1, 2)], vec![(0, 0, 1)]] {
        let want = all
            .iter()
            .filter(|b| givens.iter().all(|&(i, j, v)| b[i][j] == v))
            .count() as u64;
        assert_eq!(count_with(6, &givens, Method::Gac).0, want, "{givens:?}");
        assert_eq!(count_with(6, &givens, Method::Exact).0, want, "{givens:?}");
    }
}
