//! A finite-domain constraint programming engine. (essay to come)

mod alldiff;
mod domain;
mod error;
mod hall;
mod propagator;
mod rng;
mod search;
mod solver;
mod store;

pub use domain::{MAX_DOMAIN_SIZE, VALUE_LIMIT, Var, View};
pub use error::Error;
pub use search::{
    Observer, Restarts, SearchConfig, SearchResult, Solution, Stats, Status, ValueOrder,
    VariableOrder,
};
pub use solver::{Solver, Strength};
