//! Problems and facts from outside the engines: random completion instances ([`generate`]) and
//! the published counts every engine is tested against ([`oeis`]).

pub mod generate;
pub mod oeis;
