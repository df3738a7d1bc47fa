//! The solver's settings: [`Options`] (heuristics, fixed when the solver is made), [`Restarts`]
//! (the restart policy among them). The budget of each call to solve is the workspace's one
//! [`Limits`](super::Limits) (conflicts, time, stop flag, work counter), set with
//! [`Solver::set_limits`](super::Solver::set_limits).
//!
//! The default restart policy alternates two search modes ([`Restarts::Switching`]): a
//! *focused* mode that restarts as soon as recent conflicts look worse than usual (glucose's
//! LBD averages, Audemard and Simon 2012) and forgets activities fast, and a *stable* mode
//! that restarts rarely (the Luby sequence times a large unit) and keeps activities longer, so
//! the search can dig into one part of the space (Oh, SAT 2015, who found the first mode
//! good for unsatisfiable and the second for satisfiable formulas; CaDiCaL's alternation,
//! Biere and Fleury, POS 2020).

/// When to restart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Restarts {
    /// When the average LBD of the last conflicts exceeds `margin` times the long-run average
    /// (and at least `min_conflicts` conflicts were seen since the last restart): glucose's rule.
    Glucose {
        /// How much worse recent conflicts must be (1.25 in glucose).
        margin: f64,
        /// The fewest conflicts between restarts.
        min_conflicts: u64,
    },
    /// After `unit · luby(i)` conflicts for the i-th restart (1, 1, 2, 1, 1, 2, 4, …).
    Luby {
        /// Conflicts per step of the sequence.
        unit: u64,
    },
    /// Never.
    Never,
    /// Alternates a focused mode (the [`Restarts::Glucose`] rule with `margin` and
    /// `min_conflicts`, VSIDS decay `focused_decay`) and a stable mode (restarts after
    /// `stable_unit · luby(i)` conflicts, decay [`Options::var_decay`]). The search starts
    /// focused; the first mode lasts `first_switch` conflicts and each later one twice as many
    /// as the one before. Each switch restarts.
    Switching {
        /// How much worse recent conflicts must be to restart in focused mode.
        margin: f64,
        /// The fewest conflicts between restarts in focused mode.
        min_conflicts: u64,
        /// The VSIDS decay in focused mode (lower forgets faster).
        focused_decay: f64,
        /// Conflicts per step of the Luby sequence in stable mode.
        stable_unit: u64,
        /// Conflicts of the first mode.
        first_switch: u64,
    },
}

/// Solver settings. The defaults are good in general.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// When to restart.
    pub restarts: Restarts,
    /// The activity decay of VSIDS, in (0, 1): lower forgets faster (in stable mode, with
    /// [`Restarts::Switching`]).
    pub var_decay: f64,
    /// The sign a variable is first tried with (false: negative first, as MiniSat).
    pub initial_phase: bool,
    /// Whether learnt clauses are minimised.
    pub minimize: bool,
    /// Whether learnt clauses are shrunk in focused mode (with a restart policy that has no
    /// stable mode: always): the literals of one lower decision level replaced by that level's
    /// UIP where the clause allows it (Fleury and Biere 2021).
    pub shrink: bool,
    /// Conflicts before the first learnt-clause reduction.
    pub reduce_first: u64,
    /// How much the interval between reductions grows each time.
    pub reduce_increment: u64,
    /// Learnt clauses of this LBD or less are kept for good (the *core* tier).
    pub core_lbd: u32,
    /// Learnt clauses of this LBD or less (above `core_lbd`) are kept while they take part in
    /// conflicts: they survive two reductions after their last use (*tier 2*). Above it a
    /// clause is *local*: it survives one reduction after its last use.
    pub tier2_lbd: u32,
    /// Nonzero: seeds a small random initial activity per variable, to vary the first decisions.
    pub seed: u64,
    /// `Some(k)`: the variables `0..k` are decided before any other, whatever the activities
    /// (for a formula whose other variables are auxiliary, set by the first ones through
    /// propagation; deciding on them only sends the search astray). `None`: one order for all.
    pub primary_vars: Option<u32>,
    /// With [`Restarts::Switching`]: the modes alternate as Kissat's do, a stable mode lasting
    /// as many propagations as the focused mode before it, the focused modes growing a little
    /// faster than linearly in conflicts (after the first, `first_switch · j · log10(j + 9)⁴`
    /// for the `j`-th), and the Luby sequence of restarts starting again in each stable mode.
    /// Off (the default): each mode lasts twice the conflicts of the one before. Not a win
    /// yet: over sixteen seeds it answered `44bits_11` within 600,000 conflicts 7 times
    /// against 8, and `38bits_10`'s median was 108,930 conflicts against 101,852
    /// (docs/notes/sat-simplify.md, "Steadier on `44bits_11`?").
    pub balanced_modes: bool,
    /// Whether each conflict also bumps the variables of the reasons of its learnt clause's
    /// literals (Kissat's reason-side bumping, with its limits: not when they would be more
    /// than ten times the variables the analysis bumped, nor while the mode makes ten or more
    /// decisions a conflict). Off by default: with every pass on, over four seeds, the
    /// structured set's PAR-2 fell by 29 % (`2bitadd_10`, `dist4.c`, `44bits_11` most) but
    /// the generated 44's rose by 30 % (the ordering principle and N-Queens files time out;
    /// docs/notes/sat-simplify.md, "Reason-side bumping").
    pub bump_reasons: bool,
    /// Whether the solver keeps target and best phases: in stable mode
    /// ([`Restarts::Switching`]) decisions take the sign of the longest conflict-free
    /// assignment since the last restart (Biere and Fleury, POS 2020).
    pub target_phases: bool,
    /// Conflicts before the first rephase, the `k`-th one `k` times as many after the one
    /// before; rephases come in stable mode only (in focused mode they measured worse: Tseitin
    /// formulas), on the schedule of [`walk`](Self::walk). 0: never. Default 1,000, with walks:
    /// random k-SAT near the threshold needs a third of the conflicts or less
    /// (docs/notes/sat-solver.md, "Walks").
    pub rephase_interval: u64,
    /// The rephase schedule: with walks, B, W repeated (the saved phases set to the best
    /// phases, then to the best assignment of a ProbSAT walk from them); without, O, I, then
    /// B, O, B, I repeated (original, inverted, best: CaDiCaL's without its walk).
    pub walk: bool,
    /// A walk's budget: this many clause visits per thousand propagations since the previous
    /// walk (the walk always builds its formula, one pass; it stops early at a model).
    pub walk_effort: u64,
    /// Whether the first solve eliminates variables first: backward subsumption,
    /// self-subsuming strengthening and bounded variable elimination over the formula's
    /// clauses (SatELite's, Eén and Biere 2005). Eliminated variables get their values from
    /// the extension stack; one named again by a clause or an assumption is put back. Again
    /// during the search with [`Options::eliminate_rounds`].
    pub eliminate: bool,
    /// With [`Options::eliminate`]: elimination runs again during the search, at a restart
    /// once [`Options::eliminate_interval`] conflicts more have passed (the `k`-th time `k`
    /// times as many), on the variables whose clauses changed since the run before (new
    /// level-0 units, strengthened, removed or added clauses), with a bound that grows after
    /// each run that tried every candidate: 0, 1, 2, 4, … up to [`Options::eliminate_bound`]
    /// (Kissat's schedule; `elim_rounds`). Off by default: today's one run before the first
    /// search stays selectable (docs/notes/sat-simplify.md, "Elimination rounds").
    pub eliminate_rounds: bool,
    /// The most clauses elimination rounds may add per variable eliminated
    /// ([`Options::eliminate_rounds`]): the bound's cap (Kissat's `eliminatebound`, 16).
    pub eliminate_bound: u32,
    /// With [`Options::eliminate`]: each elimination run first factors (bounded variable
    /// addition, `bve::factor`; Manthey, Heule and Biere 2012): where the clauses `l_i ∨ C_j`
    /// are all there for several literals `l_i` and several clause parts `C_j` (clauses of up
    /// to five literals), a fresh variable `x` replaces them with the clauses `¬x ∨ l_i` and
    /// `x ∨ C_j`, when that removes more clauses than the elimination bound lets elimination
    /// add back. Fresh variables are the solver's own: models, failed assumptions and
    /// [`ClauseSink::num_vars`](crate::ClauseSink::num_vars) leave them out, and the caller's
    /// later variables are numbered around them (`numbering`). Within a twentieth of the
    /// search's propagations since the last run (Kissat's `factoreffort`), beside a base of a
    /// million ticks. Off by default: over four seeds the structured set's PAR-2 was 10 %
    /// higher with it, the generated set level (docs/notes/sat-simplify.md, "Factoring inside
    /// the solver").
    pub factor: bool,
    /// Conflicts before the first elimination round ([`Options::eliminate_rounds`]), and the
    /// unit of the gaps after it (the `k`-th gap is `k` of them). 0: a round at every restart.
    pub eliminate_interval: u64,
    /// Whether the first search begins (and a restart now and then, [`Options::simplify_interval`])
    /// with equivalent-literal substitution: the literals of
    /// each strongly connected component of the binary implication graph replaced by one of
    /// them, the others' values found again in the model (`els`). Off by default: on the
    /// structured and generated sets it did not win clearly (docs/notes/sat-simplify.md,
    /// "Equivalent literals and probing"). Its scratch space, 40 bytes per variable while it
    /// runs, is in [`Solver::estimated_bytes_with`](super::Solver::estimated_bytes_with).
    pub substitute: bool,
    /// Whether the first search begins with failed-literal probing on the roots of the
    /// binary implication graph (`probe`). Off by default, as [`Options::substitute`].
    pub probe: bool,
    /// With [`Options::substitute`]: each simplification's first substitution begins with
    /// congruence closure on the AND, XOR and if-then-else gates of the formula
    /// (`congruence`; Biere, Fazekas, Fleury and Froleyks, SAT 2024): two gates of one kind
    /// on equivalent inputs give equivalent outputs, added as binary clauses for substitution
    /// to replace. Off by default (docs/notes/sat-simplify.md, "Congruence closure").
    pub congruence: bool,
    /// With [`Options::substitute`] or [`Options::probe`]: they run again at a restart once
    /// this many conflicts have passed since they first ran (before the first search, or
    /// once [`Options::simplify_delay`] has passed), and each later time after twice as many
    /// as the time before (learnt units and binary clauses close new components). 0: only
    /// the first time.
    pub simplify_interval: u64,
    /// Conflicts the search makes before any pass runs: substitution (with congruence
    /// closure), probing, elimination and vivification each wait for the first restart after
    /// this many, and their schedules start there. A formula the search answers sooner is
    /// never simplified (Kissat, too, first eliminates after 500 conflicts). 0 (the default):
    /// the passes run before the first search.
    pub simplify_delay: u64,
    /// The work each simplification pass may spend, in thousandths of its budget (1,000: the
    /// budgets of docs/notes/sat-simplify.md, "Limits and effort bounds": a base from the
    /// formula's size plus a share of the search's propagations since the pass last ran). A
    /// pass that spends it stops where it is ([`Stats::passes_cut`](super::Stats::passes_cut));
    /// 0 stops each at its first step.
    pub simplify_effort: u64,
    /// Whether learnt clauses of the core and tier 2 are vivified at the first restart after
    /// each reduction: each clause's literals assumed false one by one and propagated, the
    /// clause shortened to what an implied literal or a conflict needs (`vivify`), within a
    /// bound set by the search's propagations ([`Options::vivify_effort`]). Off by default
    /// (docs/notes/sat-simplify.md, "Vivification of learnt clauses").
    pub vivify: bool,
    /// With [`Options::vivify`]: the ticks a round may spend (a literal its decisions propagate
    /// or a watch that propagation visits), per thousand propagations of the search since the
    /// last round (beyond a base of 10,000; scaled by [`Options::simplify_effort`] too).
    /// Default 100, as Kissat's `vivifyeffort`.
    pub vivify_effort: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            restarts: Restarts::Switching {
                margin: 1.25,
                min_conflicts: 50,
                focused_decay: 0.8,
                stable_unit: 1024,
                first_switch: 1000,
            },
            var_decay: 0.95,
            initial_phase: false,
            minimize: true,
            shrink: true,
            reduce_first: 2000,
            reduce_increment: 300,
            core_lbd: 2,
            tier2_lbd: 6,
            seed: 0,
            primary_vars: None,
            balanced_modes: false,
            bump_reasons: false,
            target_phases: true,
            rephase_interval: 1000,
            walk: true,
            walk_effort: 5_000,
            eliminate: false,
            eliminate_rounds: false,
            eliminate_bound: 16,
            factor: false,
            eliminate_interval: 2_000,
            substitute: false,
            probe: false,
            congruence: false,
            simplify_interval: 5_000,
            simplify_delay: 0,
            simplify_effort: 1_000,
            vivify: false,
            vivify_effort: 100,
        }
    }
}
