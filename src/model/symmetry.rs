//! Symmetry breaking by lex-leader rows: of every orbit of assignments under a group of
//! symmetries, only the lexicographically least survives. A symmetry is given as where it sends
//! each variable of an ordered list (a literal: a variable, or a variable negated for
//! symmetries that swap values, such as swapping two colours); the rows say
//! `x <=lex image(x)` for each, with auxiliary "equal so far" variables. Any puzzle whose
//! symmetries act on its variables can use it; peaceable armies do, over the lines' owners.

use super::{Lit, Model};

/// Adds the rows `x <=lex y` (false < true), reading `x[i]` and `y[i]` position by position:
/// at the first position where they differ, `x` is false and `y` true. Positions where the two
/// are one literal are skipped; a position where `y` is `x` negated ends the comparison there
/// (the two cannot be equal past it). Each position after the first that matters gets one
/// auxiliary variable (`{name}_eq_{k}`), true whenever the two agree on every position before
/// it, and three clauses. Returns the number of auxiliary variables added.
pub fn lex_leader(
    model: &mut Model,
    family: &'static str,
    name: &str,
    x: &[Lit],
    y: &[Lit],
) -> usize {
    assert_eq!(
        x.len(),
        y.len(),
        "lex_leader compares sequences of one length"
    );
    // The condition under which position i must keep x[i] <= y[i]: none (always) at first.
    let mut equal_so_far: Option<Lit> = None;
    let mut added = 0;
    let positions: Vec<usize> = (0..x.len()).filter(|&i| x[i] != y[i]).collect();
    for (k, &i) in positions.iter().enumerate() {
        let (a, b) = (x[i], y[i]);
        // equal so far → (a → b)
        let mut clause = vec![!a, b];
        clause.extend(equal_so_far.map(|e| !e));
        model.at_least_one(family, &clause);
        if b == !a || k + 1 == positions.len() {
            break;
        }
        // equal so far ∧ a = b → still equal (a ∧ b, or neither).
        let next = model.var(format!("{name}_eq_{k}")).pos();
        added += 1;
        for (sa, sb) in [(!a, !b), (a, b)] {
            let mut clause = vec![sa, sb, next];
            clause.extend(equal_so_far.map(|e| !e));
            model.at_least_one(family, &clause);
        }
        equal_so_far = Some(next);
    }
    added
}

/// Adds the rows that break the symmetry of interchangeable values by precedence: `slots[j][c]`
/// says "slot j takes value c" (at most one value a slot, none allowed), and value c + 1 may
/// stand in a slot only after value c has stood in an earlier one. Of every orbit of
/// assignments under the permutations of the values, exactly one survives: the one whose
/// values appear first in the order 0, 1, 2, … (the lex-leader of its orbit, reading the
/// slots in order). Each slot after the first gets one auxiliary variable per value but the
/// last (`{name}_seen_{c}_{j}`: value c stands somewhere in slots 0..=j). Returns the number
/// of auxiliary variables added.
pub fn value_precedence(
    model: &mut Model,
    family: &'static str,
    name: &str,
    slots: &[Vec<Lit>],
) -> usize {
    let values = slots.iter().map(Vec::len).max().unwrap_or(0);
    let mut added = 0;
    // seen[c]: a literal true when value c stands in some slot so far (None: not yet possible).
    let mut seen: Vec<Option<Lit>> = vec![None; values];
    for (j, slot) in slots.iter().enumerate() {
        for c in 1..slot.len() {
            // Value c here needs value c - 1 in an earlier slot.
            match seen[c - 1] {
                None => model.at_least_one(family, &[!slot[c]]),
                Some(s) => model.implies(family, slot[c], s),
            };
        }
        if j + 1 == slots.len() {
            break;
        }
        let open = values.saturating_sub(1);
        for (c, seen_c) in seen.iter_mut().enumerate().take(open) {
            let Some(&here) = slot.get(c) else { continue };
            let now = model.var(format!("{name}_seen_{c}_{j}")).pos();
            added += 1;
            // now ↔ (seen before ∨ here)
            model.implies(family, here, now);
            let mut back = vec![!now, here];
            if let Some(s) = *seen_c {
                model.implies(family, s, now);
                back.push(s);
            }
            model.at_least_one(family, &back);
            *seen_c = Some(now);
        }
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The assignments of `n` variables that the rows allow (some value of the auxiliary
    /// variables satisfying every row), listed by the SAT backend projected on the `n`.
    fn survivors(n: usize, images: &[Vec<Lit>]) -> Vec<Vec<bool>> {
        let mut model = Model::new();
        let vars: Vec<crate::model::Var> = (0..n).map(|i| model.var(format!("x{i}"))).collect();
        let x: Vec<Lit> = vars.iter().map(|v| v.pos()).collect();
        for (g, image) in images.iter().enumerate() {
            lex_leader(&mut model, "lex", &format!("g{g}"), &x, image);
        }
        let mut search =
            crate::solve::search::Search::new(crate::solve::default_backend(&model), None);
        let mut out = Vec::new();
        search.enumerate(&vars, &[], None, |a| {
            out.push(a[..n].to_vec());
            true
        });
        out.sort();
        out
    }

    /// A symmetry acting on whole assignments.
    type Act = Box<dyn Fn(&[bool]) -> Vec<bool>>;

    /// The least of each orbit, found by applying the group to every assignment (the group
    /// given as functions on assignments).
    fn least_of_orbits(n: usize, group: &[Act]) -> Vec<Vec<bool>> {
        // Lexicographic order with position 0 most significant, false < true.
        let key = |a: &[bool]| a.iter().fold(0u64, |k, &b| k << 1 | b as u64);
        (0u32..1 << n)
            .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
            .filter(|a| group.iter().all(|g| key(a) <= key(&g(a))))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    #[test]
    fn rotations_of_a_necklace_keep_one_of_each_orbit() {
        // Cyclic shifts of 6 beads: 14 necklaces of two colours.
        let n = 6;
        let mut model = Model::new();
        let v: Vec<Lit> = (0..n).map(|i| model.var(format!("x{i}")).pos()).collect();
        let images: Vec<Vec<Lit>> = (1..n)
            .map(|s| (0..n).map(|i| v[(i + s) % n]).collect())
            .collect();
        let got = survivors(n, &images);
        assert_eq!(got.len(), 14);
        let group: Vec<Act> = (1..n)
            .map(|s| Box::new(move |a: &[bool]| (0..n).map(|i| a[(i + s) % n]).collect()) as Act)
            .collect();
        assert_eq!(got, least_of_orbits(n, &group));
    }

    #[test]
    fn a_value_swap_with_a_reflection_keeps_one_of_each_orbit() {
        // Reversal, complement, and both: the group of order 4 on 5 bits.
        let n = 5;
        let mut model = Model::new();
        let v: Vec<Lit> = (0..n).map(|i| model.var(format!("x{i}")).pos()).collect();
        let images: Vec<Vec<Lit>> = vec![
            (0..n).map(|i| v[n - 1 - i]).collect(),
            (0..n).map(|i| !v[i]).collect(),
            (0..n).map(|i| !v[n - 1 - i]).collect(),
        ];
        let got = survivors(n, &images);
        let group: Vec<Act> = vec![
            Box::new(move |a: &[bool]| (0..n).map(|i| a[n - 1 - i]).collect()),
            Box::new(move |a: &[bool]| (0..n).map(|i| !a[i]).collect()),
            Box::new(move |a: &[bool]| (0..n).map(|i| !a[n - 1 - i]).collect()),
        ];
        assert_eq!(got, least_of_orbits(n, &group));
        // Burnside: (32 + 8 + 0 + 0) / 4 = 10 orbits (a 5-bit word equal to its complement
        // reversed has a middle bit equal to its own complement: none).
        assert_eq!(got.len(), 10);
    }

    #[test]
    fn interchangeable_values_keep_one_of_each_orbit() {
        // 5 slots, each empty or one of 3 interchangeable values: the survivors are exactly
        // one assignment per orbit under the 6 permutations of the values, counted apart.
        let (n, k) = (5, 3);
        let mut model = Model::new();
        let mut vars = Vec::new();
        let slots: Vec<Vec<Lit>> = (0..n)
            .map(|j| {
                let slot: Vec<Lit> = (0..k)
                    .map(|c| {
                        let v = model.var(format!("x{j}_{c}"));
                        vars.push(v);
                        v.pos()
                    })
                    .collect();
                model.at_most_one("one value", &slot);
                slot
            })
            .collect();
        value_precedence(&mut model, "precedence", "p", &slots);
        let mut search =
            crate::solve::search::Search::new(crate::solve::default_backend(&model), None);
        let mut got = std::collections::BTreeSet::new();
        search.enumerate(&vars, &[], None, |a| {
            // Slot j's value, k for empty.
            let word: Vec<usize> = (0..n)
                .map(|j| (0..k).find(|&c| a[j * k + c]).unwrap_or(k))
                .collect();
            assert!(got.insert(word), "an assignment listed twice");
            true
        });
        // Brute force: every word over {0..k-1, empty}, its orbit's least member relabelling
        // the values in order of first appearance.
        let mut orbits = std::collections::BTreeSet::new();
        for code in 0..(k + 1).pow(n as u32) {
            let word: Vec<usize> = (0..n)
                .map(|j| code / (k + 1).pow(j as u32) % (k + 1))
                .collect();
            let mut relabel = vec![usize::MAX; k];
            let mut next = 0;
            let least: Vec<usize> = word
                .iter()
                .map(|&v| {
                    if v == k {
                        return k;
                    }
                    if relabel[v] == usize::MAX {
                        relabel[v] = next;
                        next += 1;
                    }
                    relabel[v]
                })
                .collect();
            orbits.insert(least);
        }
        assert_eq!(got, orbits);
        // Σ over the m occupied slots of C(5, m) · (set partitions of m into at most 3
        // blocks, Stirling numbers of the second kind): 1 + 5 + 20 + 50 + 70 + 41 = 187.
        assert_eq!(orbits.len(), 187);
    }
}
