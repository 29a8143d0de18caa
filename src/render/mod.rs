//! Rendering shared by every puzzle: aligned text grids for terminals and SVG pictures.

pub mod svg;
pub mod text;
