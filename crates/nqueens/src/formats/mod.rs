//! Text in and out: how boards are drawn and written ([`render`]), how partial boards are read
//! ([`partial`], the `ROW:COL` files), and how solutions written by any tool are read back for
//! checking ([`solutions`]). Squares are 1-based in every format a person reads or types.

pub mod partial;
pub mod render;
pub mod solutions;
