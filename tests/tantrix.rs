//! Tantrix: the published counts of Discovery solutions, the checked solutions of
//! data/tantrix, fixed boards made by the board search, and the verifier.

use quandary::puzzles::tantrix::free::{count, solve_fixed, solve_free};
use quandary::puzzles::tantrix::model::Options;
use quandary::puzzles::tantrix::{parse_board, verify, Challenge, Colour};
use quandary::solve::search::Status;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/data/tantrix/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("data file")
}

fn hole_free_count(n: usize, colour: Colour) -> u64 {
    let ch = Challenge::new(n, Some(colour)).unwrap();
    let (status, k, _) = count(&ch, true, None, false);
    assert_eq!(status, Status::Solved);
    k
}

#[test]
fn published_hole_free_counts_up_to_7() {
    // data/tantrix/README: n = 3: 2 yellow; 4: 2 red; 5: 4 red; 6: 8 blue; 7: 32 red, 36 blue.
    assert_eq!(hole_free_count(3, Colour::Yellow), 2);
    assert_eq!(hole_free_count(3, Colour::Red), 0);
    assert_eq!(hole_free_count(4, Colour::Red), 2);
    assert_eq!(hole_free_count(5, Colour::Red), 4);
    assert_eq!(hole_free_count(6, Colour::Blue), 8);
    assert_eq!(hole_free_count(7, Colour::Red), 32);
    assert_eq!(hole_free_count(7, Colour::Blue), 36);
}
