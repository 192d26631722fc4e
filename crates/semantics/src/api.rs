//! The public interface of `tass-semantics`.
//!
//! - [`Environment`]: the state as the semantics sees it (implemented by `tass-state`).
//! - [`Evaluator`]: expressions -> [`tass_dynamic::api::Value`]s, with the checks.
//! - [`execute_transition`] / [`evaluate_guard`]: the statement executor.
//! - [`Oracle`]: the engine's handle on a `tass_prove::api::Prover`
//!   (`Oracle::from(Box<dyn Prover>)`).
//! - [`Violation`], [`Property`], [`Certainty`], [`EngineError`]: what steps report.
//! - Byte-level pointers (`bytes.rs`): [`Evaluator::byte_offset`] (the byte offset
//!   of a pointer's place from the start of its variable or block, and the type
//!   there), [`Evaluator::element_path_at`] (the path of the `T` at a byte offset,
//!   [`ResolveMode`] saying whether failures are reported), [`Evaluator::typed_pointer`],
//!   [`Evaluator::byte_add`], [`Evaluator::object_size`]; for library models such as
//!   `memcpy`/`memset`.

pub use crate::bytes::{compatible, is_byte_type, Path, ResolveMode, Resolved};
pub use crate::env::{Environment, RemoteVar};
pub use crate::eval::{
    is_data_type, parse_real_literal, scalar_type, Evaluator, FalseClaim, Place, UndecidedRank,
    RAND_MAX,
};
pub use crate::exec::{
    evaluate_guard, execute_transition, havoc_write_set, leans_on_loop_values, pointee_type,
    show_value, Change, Havoc, StepResult, TransitionRun, LOOP_SYMBOL_PREFIX,
};
pub use crate::float::{
    confirm_in_doubles, first_difference, fixed_floating_value, fixed_negative_zero, float_equal,
    float_less, float_reduction, is_float_operator, Arith,
};
pub use crate::oracle::{
    is_internal_symbol, is_stand_in_function, Decision, Oracle, OracleStats, SignedOverflow,
};
pub use crate::report::{
    Certainty, EngineError, Property, SnapshotPosition, SnapshotReport, Violation,
};
pub use crate::window::ElementWindow;
