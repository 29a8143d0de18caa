//! One module per puzzle: instance, formulations, decoder, independent verifier, rendering.

pub mod gunport;
pub mod tank;
