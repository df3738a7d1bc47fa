//! Distributed runs: what a front end that schedules tasks itself (the MPI front end,
//! `nqueens-mpi`) takes from the library. [`CountRun`](super::CountRun) owns its threads, its
//! checkpoint and its schedule; a distributed front end needs the pieces instead: the
//! deterministic list of tasks ([`SplitList`]), a way to count one task on any machine from n
//! and its id alone ([`TaskCounter`]), both the search's own hooks, and the checkpoint header
//! of the list ([`SplitList::header`], here), so that a coordinator can record each result
//! exactly once in the same format `count --checkpoint` uses.

use super::checkpoint::Header;
use super::part::Shard;
pub use crate::engines::counter::split::{MAX_EXTRA_ROWS, SplitList, TaskCounter};

impl SplitList {
    /// The checkpoint header of a count of `shard` of this list.
    pub fn header(&self, shard: Shard) -> Header {
        Header {
            n: self.n(),
            depth: self.depth(),
            tasks: self.len(),
            fingerprint: self.fingerprint(),
            shard,
            board: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_list_names_its_depth_and_tasks_in_its_header() {
        let header = SplitList::new(10, 1).header(Shard::ALL);
        assert_eq!(header.depth, 5);
        assert_eq!(header.tasks, SplitList::new(10, 1).len());
    }
}
