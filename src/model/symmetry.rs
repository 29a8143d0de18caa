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
}
