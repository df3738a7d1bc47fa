//! Variables and literals as plain `u32` codes.
//!
//! A [`Var`] is a 0-based index. A [`Lit`] is a variable with a sign, stored as
//! `code = 2·var + sign` where the sign bit is 1 for the negative literal. Both are
//! `#[repr(transparent)]` newtypes of `u32`, so arrays indexed by variable or by literal are dense
//! and a clause is a plain slice of `u32`s. DIMACS integers (1-based, negative for negated) appear
//! only at the edge: [`Lit::from_dimacs`] and [`Var::from_dimacs`] (both `None` for numbers that
//! name no literal or variable, such as 0) and [`Lit::to_dimacs`].
//!
//! ```
//! use nqueens_sat::{Lit, Var};
//! let x = Var::from_index(4);
//! assert_eq!(Lit::positive(x).code(), 8);
//! assert_eq!(Lit::negative(x).code(), 9);
//! assert_eq!(Lit::negative(x).to_dimacs(), -5);
//! assert_eq!(Lit::from_dimacs(-5), Some(!Lit::positive(x)));
//! assert_eq!(Lit::from_dimacs(0), None);
//! assert_eq!(Lit::from_code(9).var(), x);
//! ```

use std::fmt;
use std::ops::Not;

/// A propositional variable, 0-based (DIMACS variable `index + 1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Var(u32);

impl Var {
    /// The largest variable index: its DIMACS number, `i32::MAX`, still fits an `i32`, and its
    /// literal codes fit a `u32`.
    pub const MAX_INDEX: u32 = i32::MAX as u32 - 1;

    /// The variable with 0-based index `index`.
    ///
    /// # Panics
    /// If `index` exceeds [`Var::MAX_INDEX`].
    #[inline]
    pub const fn from_index(index: u32) -> Var {
        assert!(index <= Var::MAX_INDEX, "variable index out of range");
        Var(index)
    }

    /// The 0-based index, for indexing arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0-based index as a `u32`.
    #[inline]
    pub const fn as_u32(self) -> u32 {
        self.0
    }

    /// The variable of DIMACS number `number` (1-based), if it is in range.
    pub fn from_dimacs(number: i64) -> Option<Var> {
        if (1..=i64::from(i32::MAX)).contains(&number) {
            Some(Var(number as u32 - 1))
        } else {
            None
        }
    }

    /// The DIMACS number (1-based).
    #[inline]
    pub const fn to_dimacs(self) -> i32 {
        self.0 as i32 + 1
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.to_dimacs())
    }
}

impl fmt::Display for Var {
    /// The DIMACS number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// A literal: a variable or its negation, coded as `2·var + sign` (sign 1 = negative).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Lit(u32);

impl Lit {
    /// The literal `var` (positive) or `¬var` (when `negative`).
    #[inline]
    pub const fn new(var: Var, negative: bool) -> Lit {
        Lit(var.0 << 1 | negative as u32)
    }

    /// The positive literal of `var`.
    #[inline]
    pub const fn positive(var: Var) -> Lit {
        Lit::new(var, false)
    }

    /// The negative literal of `var`.
    #[inline]
    pub const fn negative(var: Var) -> Lit {
        Lit::new(var, true)
    }

    /// The literal with code `code` (`2·var + sign`).
    ///
    /// # Panics
    /// If the variable `code / 2` exceeds [`Var::MAX_INDEX`].
    #[inline]
    pub const fn from_code(code: u32) -> Lit {
        assert!(code >> 1 <= Var::MAX_INDEX, "literal code out of range");
        Lit(code)
    }

    /// [`Lit::from_code`] for a code read back from the solver's own clauses, which came from
    /// literals: the range is checked in debug builds only (the check was 1–2 % of the
    /// solver's instructions in propagation and analysis).
    #[inline]
    pub(crate) const fn from_stored_code(code: u32) -> Lit {
        debug_assert!(code >> 1 <= Var::MAX_INDEX, "literal code out of range");
        Lit(code)
    }

    /// The code `2·var + sign`, for indexing arrays by literal.
    #[inline]
    pub const fn code(self) -> u32 {
        self.0
    }

    /// The code as a `usize` index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The variable.
    #[inline]
    pub const fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// Whether this is the negation of its variable.
    #[inline]
    pub const fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }

    /// Whether this is the variable itself.
    #[inline]
    pub const fn is_positive(self) -> bool {
        !self.is_negative()
    }

    /// The literal of DIMACS integer `number` (`5` is variable 4, `-5` its negation), or
    /// `None` for 0 and numbers beyond `i32`'s range (as [`Var::from_dimacs`]).
    pub fn from_dimacs(number: i64) -> Option<Lit> {
        Var::from_dimacs(number.checked_abs()?).map(|v| Lit::new(v, number < 0))
    }

    /// The DIMACS integer.
    #[inline]
    pub const fn to_dimacs(self) -> i32 {
        let number = self.var().to_dimacs();
        if self.is_negative() { -number } else { number }
    }
}

impl Not for Lit {
    type Output = Lit;

    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Display for Lit {
    /// The DIMACS integer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// The literal of a DIMACS number, for the crate's unit tests (which write only valid ones).
#[cfg(test)]
pub(crate) fn lit(number: i64) -> Lit {
    Lit::from_dimacs(number).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_round_trip_at_the_edges() {
        for number in [1, -1, 2, -2, i32::MAX, -i32::MAX] {
            assert_eq!(
                Lit::from_dimacs(i64::from(number)).map(Lit::to_dimacs),
                Some(number)
            );
            assert_eq!(
                Var::from_dimacs(i64::from(number).abs()).map(Var::to_dimacs),
                Some(number.abs())
            );
        }
        for bad in [
            0,
            i64::from(i32::MAX) + 1,
            i64::from(i32::MIN),
            i64::MIN,
            i64::MAX,
        ] {
            assert_eq!(Lit::from_dimacs(bad), None, "{bad}");
        }
        assert_eq!(Var::from_dimacs(0), None);
        assert_eq!(Var::from_dimacs(-1), None);
        assert_eq!(Var::from_index(Var::MAX_INDEX).to_dimacs(), i32::MAX);
    }

    #[test]
    fn negation_flips_the_low_bit() {
        let l = Lit::positive(Var::from_index(7));
        assert_eq!((!l).code(), l.code() + 1);
        assert_eq!(!!l, l);
        assert!((!l).is_negative() && l.is_positive());
    }
}
