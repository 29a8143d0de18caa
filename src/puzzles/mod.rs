//! One module per puzzle: instance, formulations, decoder, independent verifier, rendering.

pub mod battleship;
pub mod chess;
pub mod gunport;
pub mod tank;
pub mod tantrix;
