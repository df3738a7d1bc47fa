//! Text in and out: how boards are drawn and written ([`render`]), and how they are read back:
//! [`read`] is the one entry that tells a file's notation and reads any of them, the partial
//! boards ([`partial`], the `ROW:COL` files), the CSPLib instances ([`csplib`]), the solution
//! lines written by any tool ([`solutions`]), JSON Lines ([`jsonl`]) and drawn boards; and
//! numbers as people read them in a progress line ([`human`]). Squares
//! are 1-based in every format a person reads or types.

pub mod csplib;
pub mod human;
pub mod jsonl;
pub mod partial;
pub mod read;
pub mod render;
pub mod solutions;

/// The byte mutations the format parsers' fuzz tests share.
#[cfg(test)]
mod fuzz {
    use nqueens_support::SplitMix64;

    /// Applies one to five random edits to `bytes`: flip a bit, insert a piece of the
    /// alphabet (`piece(i)` for `i` below `pieces`), delete a run, or duplicate a run.
    pub(super) fn mutate<'a>(
        rng: &mut SplitMix64,
        bytes: &mut Vec<u8>,
        piece: impl Fn(usize) -> &'a [u8],
        pieces: usize,
    ) {
        for _ in 0..=rng.below(4) {
            let at = rng.below(bytes.len() as u32 + 1) as usize;
            match rng.below(4) {
                0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
                1 => {
                    let piece = piece(rng.below(pieces as u32) as usize);
                    bytes.splice(at..at, piece.iter().copied());
                }
                2 if at < bytes.len() => {
                    let end = (at + 1 + rng.below(8) as usize).min(bytes.len());
                    bytes.drain(at..end);
                }
                _ => {
                    let end = (at + rng.below(16) as usize).min(bytes.len());
                    let copy = bytes[at..end].to_vec();
                    bytes.splice(at..at, copy);
                }
            }
        }
    }
}
