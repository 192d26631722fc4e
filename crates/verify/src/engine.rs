//! What the verifier needs from an execution engine, as a trait: the real engine
//! (`tass-state`) implements it in `real.rs`; tests implement it with toy systems,
//! so the search, the reports and the comparison are tested on their own.

use std::hash::Hash;

use tass_model::api::Span;
use tass_semantics::api::{EngineError, Violation};

use crate::report::Change;

/// Where a step is and what it does, for traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepInfo {
    pub span: Span,
    pub process: usize,
    pub source: String,
}

/// What [`Engine::data_relation`] is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DataRelation {
    /// The same set of data valuations.
    Equal,
    /// A subset.
    Included,
}

/// The result of executing one step.
#[derive(Debug)]
pub(crate) struct Executed<S> {
    pub state: S,
    pub violations: Vec<Violation>,
    pub changes: Vec<Change>,
    /// The MPI calls the step is part of, for traces (filled when the changes
    /// are).
    pub mpi_calls: Vec<crate::report::MpiCall>,
}

/// Why the implementation's completed paths were not shown to cover the inputs
/// of the specification's ([`Engine::covers`]): the comparison is then
/// inconclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Uncovered {
    /// For some inputs the specification accepts the implementation completes no
    /// path; `example` names such inputs when the prover gave them
    /// (`N = 3, x = 1/2`).
    NoPathCompletes { example: Option<String> },
    /// The prover could not decide.
    Undecided,
}

impl std::fmt::Display for Uncovered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Uncovered::NoPathCompletes { example } => {
                let example = example
                    .as_ref()
                    .map(|e| format!(" (e.g. {e})"))
                    .unwrap_or_default();
                write!(
                    f,
                    "for some inputs the specification accepts{example}, the implementation \
                     completes no path, so its outputs were never compared: it may not \
                     terminate there, or its input constraints or assumptions are narrower"
                )
            }
            Uncovered::Undecided => write!(
                f,
                "the prover could not show that the implementation \
                 completes a path for every input the specification accepts"
            ),
        }
    }
}

impl std::error::Error for Uncovered {}

/// An answer about outputs in compare mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Equality {
    /// Different for some inputs; a witness when the prover gave a model.
    Different(Option<Vec<(String, String)>>),
    /// The prover could not decide.
    Unknown,
}

/// One output of the two programs `tass compare` pairs: its name and its
/// value in the specification and in the implementation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OutputPair<'o, V> {
    pub name: &'o str,
    pub spec: &'o V,
    pub imp: &'o V,
}

/// A differing output found by [`Engine::compare_output`].
#[derive(Clone, Debug)]
pub(crate) struct OutputMismatch<V> {
    pub element: String,
    pub spec: V,
    pub imp: V,
    pub answer: Equality,
}

/// An execution engine for one model (one program with its process count).
pub(crate) trait Engine {
    type State: Clone + Eq + Hash;
    /// What the search keeps of a state it saved (see [`Engine::saved_key`]).
    type Key: Clone + Eq + Hash;
    type Step: Clone + Eq + Hash;
    /// A symbolic expression (path conditions, output values).
    type Value: Clone;
    /// `tass compare`: the specification's joint-assertion snapshots on one path.
    type JointHistory: Default;

    /// The initial state (inputs symbolic or fixed, input constraints assumed).
    fn initial_state(&mut self) -> Result<Self::State, EngineError>;
    /// The steps enabled in `state` (after the reduction), in exploration order.
    fn enabled(&mut self, state: &Self::State) -> Result<Vec<Self::Step>, EngineError>;
    /// Executes one step.
    fn execute(
        &mut self,
        state: Self::State,
        step: &Self::Step,
    ) -> Result<Executed<Self::State>, EngineError>;
    /// Whether [`Engine::execute`] lists the variables a step changes
    /// ([`Executed::changes`]). Only traces need them; the search turns them off
    /// (rendering values costs as much as executing).
    fn set_record_changes(&mut self, _on: bool) {}
    /// True if every process has terminated.
    fn is_terminated(&self, state: &Self::State) -> bool;
    /// Checks at a final state (memory leaks, unreceived messages, ...), or at a
    /// state with no enabled step where some process has not terminated (deadlock).
    fn final_violations(&mut self, state: &Self::State) -> Vec<Violation>;
    /// The canonical form of `state` (heap canonicalized, simplified): equal
    /// canonical forms mean the same state.
    fn canonicalize(&mut self, state: Self::State) -> Self::State;
    /// The key a canonical state is stored under: by default the state;
    /// with `--worker-symmetry`, a member of its orbit under the permutations
    /// of the interchangeable processes (states are matched modulo them; the
    /// search itself goes on from the state, not from the key).
    fn store_key(&mut self, state: Self::State) -> Self::State {
        state
    }
    /// The key the search keeps for the saved state `key_state` (a
    /// [`Engine::store_key`]): equal keys of one engine mean equal states.
    /// The real engine's is a short vector of part numbers (collapse
    /// compression), so saved states cost a few words each.
    fn saved_key(&mut self, key_state: &Self::State) -> Self::Key;
    /// A hash of a printed form of the canonical `state` that does not depend
    /// on the engine or the run (`TASS_DUMP_SAVED`, a diagnostic); `None`
    /// where there is none.
    fn stable_form_hash(&mut self, _state: &Self::State) -> Option<u64> {
        None
    }
    /// The control part of `state` (`--match set|subsume`): states with equal
    /// control parts differ only in their symbolic data. `None`: match `state`
    /// syntactically only.
    fn control_part(&mut self, _state: &Self::State) -> Option<Self::State> {
        None
    }
    /// Whether the concrete data valuations `new` stands for are, by the prover,
    /// those of `saved` (`Relation::Equal`) or among them (`Relation::Included`).
    /// Both have the same control part. An undecided question is `false`.
    fn data_relation(
        &mut self,
        _new: &Self::State,
        _saved: &Self::State,
        _relation: DataRelation,
    ) -> bool {
        false
    }
    /// Whether `state` is worth saving (the state-saving heuristic's location part):
    /// some process sits at a loop head, an if-join or a location with several
    /// incoming edges.
    fn at_join_location(&self, state: &Self::State) -> bool;
    /// Whether process `process` of `state` sits at such a location (the
    /// heuristic's test when only that process moves next). Defaults to
    /// [`Engine::at_join_location`].
    fn process_at_join_location(&self, state: &Self::State, process: usize) -> bool {
        let _ = process;
        self.at_join_location(state)
    }
    /// The livelock check of `state`, whose enabled steps (before the
    /// reduction) are `steps`: a `deadlock` violation when steps are enabled
    /// but no process can make progress from `state` any more (every step
    /// left is a poll that finds nothing, or local code; see
    /// `real/livelock.rs`). The default finds none.
    fn livelock(
        &mut self,
        _state: &Self::State,
        _steps: &[Self::Step],
    ) -> Result<Option<Violation>, EngineError> {
        Ok(None)
    }
    /// Why a search that ended was not complete after all, when the engine
    /// left something unchecked (a livelock check that gave up).
    fn unchecked(&self) -> Option<String> {
        None
    }
    /// The partial-order reduction: given `state` and the steps enabled in it (of
    /// several processes), the subset to explore. The default explores all of
    /// them. The search adds the cycle proviso (`system.rs`).
    fn reduce(&mut self, _state: &Self::State, steps: Vec<Self::Step>) -> Vec<Self::Step> {
        steps
    }
    /// A cheaper answer to "which steps does the reduction explore at
    /// `state`", when the engine can tell without computing every enabled
    /// step: the steps of one process it may explore alone. `last` is the
    /// step that produced `state` (its process, and whether it was local).
    /// `None` (the default): compute all and `reduce`. The search counts a
    /// state answered here as reduced, for the cycle proviso.
    fn steps_alone(
        &mut self,
        _state: &Self::State,
        _last: Option<(usize, bool)>,
    ) -> Result<Option<Vec<Self::Step>>, EngineError> {
        Ok(None)
    }
    /// Whether `reduce` made `step` up (a synchronous send–receive pair) rather
    /// than picking it among the enabled steps: a state explored with such a
    /// step counts as reduced for the cycle proviso.
    fn is_synchronous(&self, _step: &Self::Step) -> bool {
        false
    }
    /// Describes a step.
    fn step_info(&self, step: &Self::Step) -> StepInfo;

    /// A number naming `step` alike in every run of the same program (no
    /// addresses, no expression ids), for the digest of a split search's cut.
    fn step_fingerprint(&self, step: &Self::Step) -> u64 {
        use std::hash::{Hash, Hasher};
        let info = self.step_info(step);
        // `DefaultHasher::new` has fixed keys: the same in every process.
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (info.process, &*info.span.file, info.span.start_line).hash(&mut hasher);
        (info.span.start_column, &info.source).hash(&mut hasher);
        hasher.finish()
    }
    /// Whether `step` touches only its process's own state (for the heuristic).
    fn is_local(&self, step: &Self::Step) -> bool;
    /// The process `step` belongs to.
    fn process_of(&self, step: &Self::Step) -> usize;
    /// The process `step` counts as for the state-saving heuristic: its own,
    /// except that a synchronous send–receive pair belongs to the receiving
    /// process (paper Sec. 5.4).
    fn owner_of(&self, step: &Self::Step) -> usize {
        self.process_of(step)
    }
    /// True if no two of `steps` can both be taken from `state`: their guards
    /// exclude each other (the cases of one statement, such as an MPI call whose
    /// destination depends on a branch on the inputs). Then `state` is not
    /// *essentially nondeterministic* (paper Sec. 5.4). `false` when not known.
    fn guards_exclude_each_other(&mut self, _state: &Self::State, _steps: &[Self::Step]) -> bool {
        false
    }
    /// The path condition of `state`.
    fn path_condition(&self, state: &Self::State) -> Self::Value;
    /// Pretty-prints a value (macros and inputs by name).
    fn pretty(&self, value: &Self::Value) -> String;
    /// The first subterms at which the expression trees of two differing values
    /// part (`--arith herbrand`: which operator trees differ), when that is a
    /// proper part of them; `None` when not known.
    fn first_difference(
        &self,
        _spec: &Self::Value,
        _imp: &Self::Value,
    ) -> Option<(String, String)> {
        None
    }
    /// Pretty-prints a path condition, simplified to an equivalent one.
    fn pretty_condition(&self, condition: &Self::Value) -> String {
        self.pretty(condition)
    }
    /// The condition under which `violation` was found on a path with path
    /// condition `pc`: `pc` itself, except for a joint assertion checked during
    /// the implementation's search, where it is `pc` and the condition of the
    /// specification path it was checked against.
    fn condition_of(&self, pc: Self::Value, _violation: &Violation) -> Self::Value {
        pc
    }
    /// Inputs fixed by `-i NAME=VALUE`, for witnesses.
    fn fixed_inputs(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The program's outputs at `state` (process 0's copies): `(name, value)`
    /// in declaration order.
    fn outputs(&mut self, state: &Self::State) -> Vec<(String, Self::Value)>;
    /// Compares the specification's and the implementation's value of one
    /// output under `assumption`: `None` if proved equal, else the element that
    /// differs (`c[2]`, or the output's name itself), its two values, and
    /// whether the difference is proved or only not ruled out.
    fn compare_output(
        &mut self,
        assumption: &Self::Value,
        pair: OutputPair<'_, Self::Value>,
    ) -> Option<OutputMismatch<Self::Value>>;
    /// The outputs at a terminal state, element by element (`c[0][1]`), each printed
    /// exactly under the state's path condition (for the JSON `outputs` object).
    fn output_values(&mut self, state: &Self::State) -> Vec<(String, String)>;
    /// The conjunction of two path conditions.
    fn and(&self, a: &Self::Value, b: &Self::Value) -> Self::Value;
    /// A cheap test that two path conditions exclude each other (`true` only when
    /// their conjunction is certainly unsatisfiable). Comparison pairs every
    /// completed path of the specification with every one of the implementation,
    /// and most pairs are for different inputs.
    fn disjoint(&mut self, _a: &Self::Value, _b: &Self::Value) -> bool {
        false
    }
    /// Whether every input satisfying one of the `domain` path conditions (the
    /// specification's completed paths) satisfies one of the `cover` conditions (the
    /// implementation's completed paths). `Err` says why that is not proved: an input
    /// the comparison never looked at (the implementation loops there, or its
    /// constraints or assumptions are narrower).
    fn covers(&mut self, domain: &[Self::Value], cover: &[Self::Value]) -> Result<(), Uncovered>;
    /// `domain` restricted to the inputs one part of a split search answers
    /// for: those of its own items (`own`, path conditions at the cut), and
    /// those of no item at all (`all`: every part has the paths above the
    /// cut). `None` when the engine cannot build it (the part's coverage is
    /// then left unchecked).
    fn restrict_to_part(
        &self,
        _domain: &Self::Value,
        _all: &[Self::Value],
        _own: &[Self::Value],
    ) -> Option<Self::Value> {
        None
    }
    /// Counters: (prover calls, SMT calls, symbolic values).
    fn counters(&self) -> (u64, u64, u64);
    /// Loop-invariant checks made and the prover questions they asked.
    fn invariant_counters(&self) -> (u64, u64) {
        (0, 0)
    }
    /// Arrival steps at invariant loop heads executed (tass's own
    /// transitions; the LISE paper's loop transition includes the arrival).
    fn loop_arrivals(&self) -> u64 {
        0
    }
    /// True if the aligned form of collective loop invariants refused a
    /// state in this engine's run (a run with lagged records may decide).
    fn aligned_loops_stuck(&self) -> bool {
        false
    }
    /// The names of the inputs, in declaration order (for witnesses).
    fn input_names(&self) -> Vec<String>;
    /// Why there is no witness when the prover gave none.
    fn no_witness_reason(&self) -> String;
    /// `tass compare`, specification's side: its joint snapshots on the path
    /// to the final `state`.
    fn joint_history(&self, _state: &Self::State) -> Self::JointHistory {
        Self::JointHistory::default()
    }
    /// `tass compare`, implementation's side, before its search: the
    /// specification's paths (path condition, joint snapshots), so that each
    /// occurrence of its joint assertions is checked as soon as every process
    /// has reached it.
    fn set_spec_joint(&mut self, _paths: Vec<(Self::Value, Self::JointHistory)>) {}
    /// `tass compare`, specification's side, after its search: the paths it
    /// cut at the return to a joint invariant loop's head (the path condition
    /// there, the joint snapshots), partners of the implementation's
    /// iterations.
    fn cut_joint_paths(&self) -> Vec<(Self::Value, Self::JointHistory)> {
        Vec::new()
    }
    /// True if one of `values` mentions a value made up at an invariant
    /// loop's entry (a difference found under one is only possible: the
    /// invariant may allow states no run reaches).
    fn leans_on_loop_values(&self, _values: &[&Self::Value]) -> bool {
        false
    }
    /// `tass compare`, implementation's side: the first violation of its joint
    /// assertions on the path to the final `state` against `spec`, under `pc`.
    fn check_joint(
        &mut self,
        _state: &Self::State,
        _spec: &Self::JointHistory,
        _pc: &Self::Value,
    ) -> Result<Option<Violation>, EngineError> {
        Ok(None)
    }
    /// `compare --symmetry`: the common number of elements of the input arrays
    /// `arrays` as they occur in `values`, or why they cannot be permuted (not
    /// inputs, absent, no constant extent).
    fn symmetric_extent(
        &mut self,
        _arrays: &[String],
        _values: &[Self::Value],
    ) -> Result<usize, String> {
        Err("this engine cannot permute inputs".into())
    }
    /// `compare --symmetry`: `value` with the elements of the input `arrays`
    /// permuted alike: element `k` becomes element `permutation[k]`.
    fn permute_inputs(
        &mut self,
        _value: &Self::Value,
        _arrays: &[String],
        _permutation: &[usize],
    ) -> Result<Self::Value, String> {
        Err("this engine cannot permute inputs".into())
    }
    /// Whether two path conditions are proved equivalent.
    fn equivalent_conditions(&mut self, _a: &Self::Value, _b: &Self::Value) -> bool {
        false
    }
    /// `compare --symmetry`, implementation's side, once the hypotheses are
    /// proved: from now on every executed step goes on from the representative
    /// of its state's orbit under the permutations of the `extent` elements of
    /// `arrays` (`tass_state`'s `symmetry.rs`); or why it cannot.
    fn reduce_by_symmetry(
        &mut self,
        _initial: &Self::State,
        _arrays: &[String],
        _extent: usize,
    ) -> Result<(), String> {
        Err("this engine cannot permute inputs".into())
    }
    /// Ends the reduction of [`Engine::reduce_by_symmetry`]; returns whether a
    /// representative read an element after it was consumed (its values were
    /// over-approximated).
    fn stop_symmetry_reduction(&mut self) -> bool {
        false
    }
}
