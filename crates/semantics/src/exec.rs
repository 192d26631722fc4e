//! The executor: a transition (guard + statement) applied to an environment.

use tass_dynamic::api::{undefined_data, ElemType, HeapObject, Pointer, Root, Step, Value};
use tass_model::api::{
    render_expr, AssertOrigin, Body, Callee, Expr as MExpr, ExprKind, FunctionId, LibraryFunction,
    LocationId, Model, Span, Statement, TransitionId, Type as MType,
};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use crate::env::Environment;
use crate::eval::{is_data_type, scalar_type, Evaluator, FalseClaim, RAND_MAX};
use crate::oracle::Oracle;
use crate::report::{EngineError, Property, Violation};

mod loop_invariant;

pub use loop_invariant::{havoc_write_set, leans_on_loop_values, Havoc, LOOP_SYMBOL_PREFIX};

/// A variable a step changed, for traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The lvalue as written in the source (`a[i]`, `*p`, `x`).
    pub variable: String,
    /// Its new value, pretty-printed (symbolic constants by their input names).
    pub value: String,
}

/// What executing one transition produced besides the new state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepResult {
    /// Violations found (including `assumption-vacuous` warnings).
    pub violations: Vec<Violation>,
    /// Variables changed.
    pub changes: Vec<Change>,
}

/// Which transition [`execute_transition`] runs, and how.
#[derive(Clone, Copy, Debug)]
pub struct TransitionRun {
    /// A transition of the executing process's current function.
    pub transition: TransitionId,
    /// The guard is already known to hold under the path condition (a
    /// concrete or decided branch): it is not conjoined again.
    pub guard_known_true: bool,
    /// List the changed variables for traces (pretty-printing costs time;
    /// searches may leave it off and replay a counterexample with it on).
    pub record_changes: bool,
}

/// Executes `run.transition` of the executing process's current function: checks
/// its guard's operations (always) and conjoins the guard (unless
/// `run.guard_known_true`), executes its statement, moves control, and conjoins to
/// the path condition whatever failed checks assumed.
///
/// The caller has established that the guard is satisfiable under the path
/// condition (the transition is enabled).
pub fn execute_transition(
    model: &Model,
    f: &ExprFactory,
    oracle: &mut Oracle,
    env: &mut dyn Environment,
    run: TransitionRun,
) -> Result<StepResult, EngineError> {
    let body = current_body(model, env)?;
    let tid = run.transition;
    let transition = body.transition(tid);
    let (_, target) = body.graph.edge_endpoints(tid).ok_or_else(|| {
        EngineError::invalid(
            "transition not in the current function",
            Some(&transition.span),
        )
    })?;
    let mut step = StatementStep {
        model,
        ev: Evaluator::checking(f, oracle, env.process()),
        changes: ChangeLog {
            enabled: run.record_changes,
            items: Vec::new(),
        },
        span: &transition.span,
    };
    if !transition.guard.is_true() {
        // The guard is evaluated with its checks even when the path condition
        // already implies it: `if (2 / x != 7)` divides by zero at x = 0 whether or
        // not the other branch is feasible (a guard known true skipped its checks,
        // and such a division was reported to hold).
        let g = step.ev.eval_bool(&*env, &transition.guard)?;
        if !run.guard_known_true {
            step.ev.assumed.push(g);
        }
    }
    let moved = step.execute(env, &transition.statement, tid, target)?;
    if !moved {
        env.set_location(target);
    }
    let pc = step.ev.current_pc(&*env);
    env.set_path_condition(pc);
    Ok(StepResult {
        violations: step.ev.violations,
        changes: step.changes.items,
    })
}

/// The execution of one transition's statement: the evaluator (with the checks
/// and assumptions made so far), the changes for traces, and the statement's span.
struct StatementStep<'s, 'a> {
    model: &'s Model,
    ev: Evaluator<'a>,
    changes: ChangeLog,
    span: &'s Span,
}

impl StatementStep<'_, '_> {
    /// Executes `statement` (of transition `tid`, whose target is `target`);
    /// true when it moved control itself (a call, a return, a termination).
    fn execute(
        &mut self,
        env: &mut dyn Environment,
        statement: &Statement,
        tid: TransitionId,
        target: LocationId,
    ) -> Result<bool, EngineError> {
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        match statement {
            Statement::Noop => {}
            Statement::Declare { var } => {
                let ty = &model.var(*var).ty;
                let v = ev.undefined_value(&*env, ty, span)?;
                let root = env.root_of(*var);
                if let Some(slot) = env.get_mut(root) {
                    *slot = v;
                }
            }
            Statement::Assign { lhs, rhs } => {
                let v = ev.eval(&*env, rhs)?;
                let v = ev.convert(v, &rhs.ty, &lhs.ty, span)?;
                let place = ev.eval_place(&*env, lhs, false)?;
                self.changes.record(|| change(model, f, lhs, &v));
                ev.write_place(env, &place, v, span)?;
            }
            Statement::Assert { condition, origin } => self.assert(env, condition, origin)?,
            Statement::Assume { condition } => self.assume(env, condition)?,
            Statement::Call { lhs, callee, args } => match callee {
                Callee::User(g) => {
                    self.call_user(env, *g, args, tid, target)?;
                    return Ok(true);
                }
                Callee::Library(lf) => return self.library_call(env, *lf, lhs.as_ref(), args),
                Callee::System(g) => {
                    return Err(EngineError::unsupported(
                        format!(
                            "call of the system function `{}` (no built-in model)",
                            model.function(*g).name
                        ),
                        span,
                    ))
                }
            },
            Statement::Return { value } => {
                self.return_from(env, value.as_ref(), target)?;
                return Ok(true);
            }
            Statement::Allocate {
                lhs,
                elem_type,
                count,
                zeroed,
            } => self.allocate(env, lhs, elem_type, count, *zeroed)?,
            Statement::Reallocate {
                lhs,
                pointer,
                elem_type,
                count,
            } => self.reallocate(env, lhs, pointer, (elem_type, count))?,
            Statement::Free { pointer } => {
                let p = ev.eval(&*env, pointer)?;
                if let Some(object) = heap_block(ev, &*env, &p, "free", span) {
                    env.free(object);
                }
            }
            // Only moves control: the engine takes the snapshot of the state this
            // step reaches and checks the collective assertion when every process
            // has one (`tass-state`'s snapshot queues).
            Statement::CollectiveAssert { .. } => {}
            Statement::LoopInvariant(inv) => self.loop_invariant(env, inv)?,
        }
        Ok(false)
    }

    fn assert(
        &mut self,
        env: &mut dyn Environment,
        condition: &MExpr,
        origin: &AssertOrigin,
    ) -> Result<(), EngineError> {
        let ev = &mut self.ev;
        let c = ev.eval_bool(&*env, condition)?;
        let text = render_expr(self.model, condition);
        let pragma = matches!(origin, AssertOrigin::Pragma);
        ev.check(
            &*env,
            c,
            Property::Assertion,
            || {
                if pragma {
                    format!("#pragma TASS assert {text} can fail")
                } else {
                    format!("assert({text}) can fail")
                }
            },
            self.span,
        );
        Ok(())
    }

    /// `assume(condition)`: conjoined to the path condition; a warning when that
    /// leaves the path no execution.
    fn assume(&mut self, env: &mut dyn Environment, condition: &MExpr) -> Result<(), EngineError> {
        let ev = &mut self.ev;
        let f = ev.factory();
        let c = ev.eval_bool(&*env, condition)?;
        ev.assumed.push(c);
        let pc = ev.current_pc(&*env);
        if ev.oracle().is_unsat(f, pc) {
            ev.violations.push(Violation {
                property: Property::AssumptionVacuous,
                certainty: crate::report::Certainty::Provable,
                message: format!(
                    "the assumption `{}` is never true on this path",
                    render_expr(self.model, condition)
                ),
                span: self.span.clone(),
                process: env.process(),
                witness: None,
                claim: f.pretty(c),
                snapshots: None,
            });
            // The path stands for no execution: end it.
            ev.assumed.push(f.ff());
        }
        Ok(())
    }

    /// A call of user function `g`: pushes its frame (parameters bound to the
    /// converted arguments, locals undefined).
    fn call_user(
        &mut self,
        env: &mut dyn Environment,
        g: FunctionId,
        args: &[MExpr],
        tid: TransitionId,
        target: LocationId,
    ) -> Result<(), EngineError> {
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        let callee_fn = model.function(g);
        if callee_fn.body.is_none() {
            return Err(EngineError::unsupported(
                format!("call of `{}`, which has no body", callee_fn.name),
                span,
            ));
        }
        let mut locals = Vec::with_capacity(callee_fn.params.len() + callee_fn.locals.len());
        for (p, a) in callee_fn.params.iter().zip(args) {
            let v = ev.eval(&*env, a)?;
            let v = ev.convert(v, &a.ty, &model.var(*p).ty, span)?;
            locals.push((*p, v));
        }
        if callee_fn.params.len() != args.len() {
            return Err(EngineError::invalid(
                format!(
                    "`{}` called with {} arguments, declared with {}",
                    callee_fn.name,
                    args.len(),
                    callee_fn.params.len()
                ),
                Some(span),
            ));
        }
        for l in &callee_fn.locals {
            let ty = &model.var(*l).ty;
            let v = if literal_extents(ty) {
                ev.undefined_value(&*env, ty, span)?
            } else {
                Value::Undefined
            };
            locals.push((*l, v));
        }
        for (p, v) in locals.iter().take(callee_fn.params.len()) {
            self.changes.record(|| Change {
                variable: format!("{}.{}", callee_fn.name, model.var(*p).name),
                value: show_value(f, v),
            });
        }
        env.set_location(target);
        env.push_frame(g, Some(tid), locals);
        Ok(())
    }

    /// `return value;`: pops the frame and stores the converted value into the
    /// caller's left-hand side; returning from the last frame terminates.
    fn return_from(
        &mut self,
        env: &mut dyn Environment,
        value: Option<&MExpr>,
        target: LocationId,
    ) -> Result<(), EngineError> {
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        let v = match value {
            Some(e) => Some((ev.eval(&*env, e)?, e.ty.clone())),
            None => None,
        };
        let depth = env.stack_depth();
        if depth <= 1 {
            let code = v.as_ref().and_then(|(v, _)| v.as_data());
            env.set_location(target);
            env.terminate(code);
        } else if let (Some(cs), Some((v, vty))) = (env.pop_frame(), v) {
            let (cf, _) = env.location();
            let caller = model.function(cf);
            if let Some(cbody) = caller.body.as_ref() {
                if let Statement::Call { lhs: Some(lhs), .. } = &cbody.transition(cs).statement {
                    let v = ev.convert(v, &vty, &lhs.ty, span)?;
                    let place = ev.eval_place(&*env, lhs, false)?;
                    self.changes.record(|| change(model, f, lhs, &v));
                    ev.write_place(env, &place, v, span)?;
                }
            }
        }
        Ok(())
    }

    /// `lhs = malloc/calloc(count * sizeof(elem_type))` (`zeroed` for calloc).
    fn allocate(
        &mut self,
        env: &mut dyn Environment,
        lhs: &MExpr,
        elem_type: &MType,
        count: &MExpr,
        zeroed: bool,
    ) -> Result<(), EngineError> {
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        let n = ev.eval_int(&*env, count)?;
        let claim = f.le(f.int(0), n);
        let ns = f.pretty(n);
        ev.check(
            &*env,
            claim,
            Property::OutOfBounds,
            || format!("allocation of a negative number of elements ({ns})"),
            span,
        );
        let value = block_value(ev, &*env, elem_type, n, zeroed, span)?;
        let root = env.allocate(value, n, ElemType::of(elem_type));
        let p = Value::Pointer(Pointer::to(root, [Step::Index(f.int(0))]));
        let place = ev.eval_place(&*env, lhs, false)?;
        self.changes.record(|| Change {
            variable: render_expr(model, lhs),
            value: format!("&heap[{}][0] ({} elements)", heap_index(root), ns),
        });
        ev.write_place(env, &place, p, span)
    }

    /// `lhs = realloc(pointer, count * sizeof(elem_type))`: a new block holding
    /// the old one's prefix; the old block is freed.
    fn reallocate(
        &mut self,
        env: &mut dyn Environment,
        lhs: &MExpr,
        pointer: &MExpr,
        (elem_type, count): (&MType, &MExpr),
    ) -> Result<(), EngineError> {
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        let old = ev.eval(&*env, pointer)?;
        let n = ev.eval_int(&*env, count)?;
        let mut value = block_value(ev, &*env, elem_type, n, false, span)?;
        if let Some(object) = heap_block(ev, &*env, &old, "realloc", span) {
            if let Some(HeapObject::Live {
                value: oldv,
                extent,
                ..
            }) = env.heap_object(env.process(), object).cloned()
            {
                value = copy_prefix(f, &value, &oldv, extent, n, span)?;
            }
            env.free(object);
        }
        let root = env.allocate(value, n, ElemType::of(elem_type));
        let p = Value::Pointer(Pointer::to(root, [Step::Index(f.int(0))]));
        let place = ev.eval_place(&*env, lhs, false)?;
        self.changes.record(|| Change {
            variable: render_expr(model, lhs),
            value: format!("&heap[{}][0]", heap_index(root)),
        });
        ev.write_place(env, &place, p, span)
    }
}

/// The changes of a step, recorded only when traces are wanted.
struct ChangeLog {
    enabled: bool,
    items: Vec<Change>,
}

impl ChangeLog {
    fn record(&mut self, make: impl FnOnce() -> Change) {
        if self.enabled {
            self.items.push(make());
        }
    }
}

fn heap_index(root: Root) -> u32 {
    match root {
        Root::Heap { object, .. } => object,
        _ => 0,
    }
}

fn change(model: &Model, f: &ExprFactory, lhs: &tass_model::api::Expr, v: &Value) -> Change {
    Change {
        variable: render_expr(model, lhs),
        value: show_value(f, v),
    }
}

/// A value pretty-printed for traces.
pub fn show_value(f: &ExprFactory, v: &Value) -> String {
    match v {
        Value::Undefined => "undefined".into(),
        Value::Data(e) => f.pretty(*e),
        Value::Pointer(Pointer::Null) => "NULL".into(),
        Value::Pointer(Pointer::Bytes { root, offset }) => {
            let base = match root {
                Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                    format!("var{}", v.0)
                }
                Root::Heap { object, .. } => format!("heap[{object}]"),
            };
            format!("(char *)&{base} + {}", f.pretty(*offset))
        }
        Value::Pointer(Pointer::To { root, path }) => {
            let mut s = match root {
                Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                    format!("&var{}", v.0)
                }
                Root::Heap { object, .. } => format!("&heap[{object}]"),
            };
            for st in path {
                match st {
                    Step::Index(i) => s.push_str(&format!("[{}]", f.pretty(*i))),
                    Step::Field(k) => s.push_str(&format!(".{k}")),
                }
            }
            s
        }
        Value::Struct(fields) => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|x| show_value(f, x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Array(els) => format!(
            "[{}]",
            els.iter()
                .map(|x| show_value(f, x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Handle(h) => format!("{h:?}"),
    }
}

fn literal_extents(ty: &MType) -> bool {
    match ty {
        MType::Array(e, Some(x)) => matches!(x.kind, ExprKind::IntLit(_)) && literal_extents(e),
        MType::Array(_, None) => false,
        _ => true,
    }
}

/// The array value of a new heap block of `n` elements of `elem`.
fn block_value(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    elem: &MType,
    n: Expr,
    zeroed: bool,
    span: &Span,
) -> Result<Value, EngineError> {
    let f = ev.factory();
    if is_data_type(elem) {
        let et = ev.data_type(env, elem, span)?.unwrap_or(Type::Int);
        let ty = Type::array(et, Some(n));
        Ok(Value::Data(if zeroed {
            f.default_value(&ty)
        } else {
            undefined_data(f, ty)
        }))
    } else {
        let k = f
            .as_concrete_int(n)
            .and_then(|k| usize::try_from(k).ok())
            .ok_or_else(|| {
                EngineError::unsupported(
                    "allocation of pointers or structs with a symbolic count",
                    span,
                )
            })?;
        let one = if zeroed {
            ev.zero_value(env, elem, span)?
        } else {
            ev.undefined_value(env, elem, span)?
        };
        Ok(Value::Array(std::sync::Arc::new(vec![one; k])))
    }
}

/// New block `new` (extent `n`) with its prefix copied from `old` (extent `m`).
fn copy_prefix(
    f: &ExprFactory,
    new: &Value,
    old: &Value,
    m: Expr,
    n: Expr,
    span: &Span,
) -> Result<Value, EngineError> {
    match (new, old) {
        (Value::Data(a), Value::Data(b)) => {
            let ty = f.type_of(*a);
            let i = f.symbol("__tass_i", Type::Int);
            let from_old = f.array_read(*b, i);
            let fresh = f.array_read(*a, i);
            let body = f.ite(f.lt(i, m), from_old, fresh);
            let _ = n;
            Ok(Value::Data(f.array_lambda(ty, i, body)))
        }
        (Value::Array(a), Value::Array(b)) => {
            let mut v = (**a).clone();
            for (k, x) in b.iter().enumerate().take(v.len()) {
                v[k] = x.clone();
            }
            Ok(Value::Array(std::sync::Arc::new(v)))
        }
        _ => Err(EngineError::unsupported(
            "realloc changing the element kind",
            span,
        )),
    }
}

/// The heap object `p` is the start of, for `free`/`realloc`; reports an invalid
/// pointer otherwise. `None` for null (nothing to do) or after a violation.
fn heap_block(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    p: &Value,
    what: &str,
    span: &Span,
) -> Option<u32> {
    let f = ev.factory();
    // A byte view of a block is its start when its byte offset is 0: checked
    // like an element index below.
    let as_path;
    let p = match p {
        Value::Pointer(Pointer::Bytes { root, offset }) => {
            as_path = Value::Pointer(Pointer::to(*root, [Step::Index(*offset)]));
            &as_path
        }
        other => other,
    };
    match p {
        Value::Pointer(Pointer::Null) => None,
        Value::Pointer(Pointer::To {
            root: Root::Heap { proc, object },
            path,
        }) if *proc as usize == env.process() => {
            match env.heap_object(*proc as usize, *object) {
                Some(HeapObject::Live { .. }) if env.is_program_args(*object) => {
                    ev.fail(
                        env,
                        Property::InvalidPointer,
                        format!("{what} of the command line (`argv` or one of its strings), which `malloc` did not allocate"),
                        span,
                    );
                    return None;
                }
                Some(HeapObject::Live { .. }) => {}
                Some(HeapObject::Freed) => {
                    ev.fail(
                        env,
                        Property::InvalidPointer,
                        format!("{what} of memory that was already freed"),
                        span,
                    );
                    return None;
                }
                None => {
                    ev.fail(
                        env,
                        Property::InvalidPointer,
                        format!("{what} of a dangling pointer"),
                        span,
                    );
                    return None;
                }
            }
            match path.as_slice() {
                [Step::Index(i)] => {
                    let claim = f.eq(*i, f.int(0));
                    let i = *i;
                    ev.check(
                        env,
                        claim,
                        Property::InvalidPointer,
                        || {
                            let is = f.pretty(i);
                            format!("{what} of a pointer into the middle of a block (offset {is})")
                        },
                        span,
                    );
                    Some(*object)
                }
                _ => {
                    ev.fail(
                        env,
                        Property::InvalidPointer,
                        format!("{what} of a pointer that is not the start of a block"),
                        span,
                    );
                    None
                }
            }
        }
        Value::Undefined => {
            ev.fail(
                env,
                Property::InvalidPointer,
                format!("{what} of an uninitialised pointer"),
                span,
            );
            None
        }
        _ => {
            ev.fail(
                env,
                Property::InvalidPointer,
                format!("{what} of a pointer not obtained from malloc"),
                span,
            );
            None
        }
    }
}

/// Strips pointer casts to find the pointee type of a `void *` argument (also
/// used for MPI buffer arguments).
pub fn pointee_type(e: &tass_model::api::Expr) -> Option<MType> {
    let mut e = e;
    loop {
        if let ExprKind::Cast(inner) = &e.kind {
            if matches!(inner.ty, MType::Pointer(_)) {
                e = inner;
                continue;
            }
        }
        return match &e.ty {
            MType::Pointer(t) if **t != MType::Void => Some((**t).clone()),
            _ => None,
        };
    }
}

impl StatementStep<'_, '_> {
    /// A call of library function `lf` (`lhs = lf(args)`); true when it moved
    /// control itself (`exit`, `abort`).
    fn library_call(
        &mut self,
        env: &mut dyn Environment,
        lf: LibraryFunction,
        lhs: Option<&MExpr>,
        args: &[MExpr],
    ) -> Result<bool, EngineError> {
        use LibraryFunction::*;
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        let mut result: Option<Value> = None;
        let arg = |k: usize| -> Result<&tass_model::api::Expr, EngineError> {
            args.get(k).ok_or_else(|| {
                EngineError::invalid(format!("{} needs more arguments", lf.c_name()), Some(span))
            })
        };
        match lf {
            Exit | Abort => {
                let code = if lf == Exit {
                    Some(ev.eval_int(&*env, arg(0)?)?)
                } else {
                    // A program that aborts has failed, as if an assertion had.
                    let message = "abort() is called: the program aborts".into();
                    let claim = FalseClaim::new(Property::Assertion, message, span);
                    ev.record_false(&*env, claim.claiming("abort() is not called"));
                    None
                };
                // Terminate at the call's own location (not its target), so that
                // checks made at termination (leaks, MPI_Finalize) point at the call.
                env.terminate(code);
                return Ok(true);
            }
            Abs | Labs | Sqrt | Fabs | Pow | Exp | Log | Sin | Cos | Floor | Ceil | Fmin | Fmax => {
                let e = tass_model::api::Expr::new(
                    ExprKind::MathCall(lf, args.to_vec()),
                    lhs.map(|l| l.ty.clone()).unwrap_or(MType::DOUBLE),
                    span.clone(),
                );
                result = Some(ev.eval(&*env, &e)?);
            }
            Rand | Random => {
                let r = f.fresh_symbol(lf.c_name(), Type::Int);
                ev.assumed
                    .push(f.and(f.le(f.int(0), r), f.le(r, f.int(RAND_MAX))));
                result = Some(Value::Data(r));
            }
            Srand | Srandom | Printf | Fprintf | Puts | Putchar | Fflush => {
                for a in args {
                    ev.eval(&*env, a)?;
                }
                // Nothing is printed: what a run prints is not a property, so output
                // is a local step (its arguments are still evaluated, and checked).
                if lf == Printf || lf == Puts || lf == Putchar {
                    result = Some(Value::Data(f.int(0)));
                }
            }
            Memcpy | Memmove | Memset | Memcmp | Strlen | Strcmp | Strncmp | Strcpy | Strncpy
            | Atoi | Atol | Strtol => {
                let call = crate::libc::LibCall {
                    model,
                    lf,
                    args,
                    span,
                };
                result = crate::libc::string_call(ev, env, &call)?;
            }
            Time | Clock => result = Some(self.time_or_clock(env, lf, args)?),
            Difftime => {
                let end = ev.eval_int(&*env, arg(0)?)?;
                let start = ev.eval_int(&*env, arg(1)?)?;
                result = Some(Value::Data(f.to_real(f.sub(end, start))));
            }
            Sleep | Usleep => {
                for a in args {
                    ev.eval(&*env, a)?;
                }
                result = Some(Value::Data(f.int(0)));
            }
            Getpid => {
                let pid = f.fresh_symbol("getpid", Type::Int);
                ev.assumed.push(f.lt(f.int(0), pid));
                result = Some(Value::Data(pid));
            }
            Assert => {
                let c = ev.eval_bool(&*env, arg(0)?)?;
                let text = render_expr(model, arg(0)?);
                ev.check(
                    &*env,
                    c,
                    Property::Assertion,
                    || format!("assert({text}) can fail"),
                    span,
                );
            }
            _ => return Err(unsupported_library(lf, span)),
        }
        if let (Some(lhs), Some(v)) = (lhs, result) {
            self.store_result(env, lhs, v)?;
        }
        Ok(false)
    }

    /// `time(out)` or `clock()`: a fresh non-negative value (also stored
    /// through `time`'s pointer unless it is null).
    fn time_or_clock(
        &mut self,
        env: &mut dyn Environment,
        lf: LibraryFunction,
        args: &[MExpr],
    ) -> Result<Value, EngineError> {
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        // Fresh values: a violation that depends on them is only possible.
        let t = f.fresh_symbol(lf.c_name(), Type::Int);
        ev.oracle().note_abstraction(t);
        ev.assumed.push(f.le(f.int(0), t));
        if lf == LibraryFunction::Time {
            let out = ev.eval(
                &*env,
                args.first().ok_or_else(|| {
                    EngineError::invalid(
                        format!("{} needs more arguments", lf.c_name()),
                        Some(span),
                    )
                })?,
            )?;
            if !matches!(out, Value::Pointer(Pointer::Null)) {
                let place =
                    ev.deref_place(&*env, out, false, span, &|| render_expr(model, &args[0]))?;
                ev.write_place(env, &place, Value::Data(t), span)?;
            }
        }
        Ok(Value::Data(t))
    }

    /// Stores a library call's result into its left-hand side, cast to its type.
    fn store_result(
        &mut self,
        env: &mut dyn Environment,
        lhs: &MExpr,
        v: Value,
    ) -> Result<(), EngineError> {
        let (model, span, f) = (self.model, self.span, self.ev.factory());
        let ev = &mut self.ev;
        let v = match (&v, scalar_type(&lhs.ty)) {
            (Value::Data(x), Some(t)) if f.type_of(*x) != t => Value::Data(f.cast(*x, &t)),
            _ => v,
        };
        let place = ev.eval_place(&*env, lhs, false)?;
        self.changes.record(|| change(model, f, lhs, &v));
        ev.write_place(env, &place, v, span)
    }
}

/// The error for a library function the executor does not model.
fn unsupported_library(lf: LibraryFunction, span: &Span) -> EngineError {
    use LibraryFunction::*;
    match lf {
        Malloc | Calloc | Realloc | Free => EngineError::unsupported(
            format!("{} whose element type could not be determined", lf.c_name()),
            span,
        ),
        other if other.is_mpi() => EngineError::unsupported(
            format!(
                "{} (MPI is not supported by the engine yet)",
                other.c_name()
            ),
            span,
        ),
        other => EngineError::unsupported(format!("the library function {}", other.c_name()), span),
    }
}

/// The body of the function the process of `env` is in.
fn current_body<'m>(model: &'m Model, env: &dyn Environment) -> Result<&'m Body, EngineError> {
    let (fid, _) = env.location();
    let function = model.function(fid);
    function.body.as_ref().ok_or_else(|| {
        EngineError::invalid(
            format!("function `{}` has no body", function.name),
            Some(&function.span),
        )
    })
}

/// The value of transition `tid`'s guard for the executing process, evaluated
/// without checks (checks happen when the transition executes).
pub fn evaluate_guard(
    model: &Model,
    f: &ExprFactory,
    oracle: &mut Oracle,
    env: &dyn Environment,
    tid: TransitionId,
) -> Result<Expr, EngineError> {
    let body = current_body(model, env)?;
    let guard = &body.transition(tid).guard;
    if guard.is_true() {
        return Ok(f.tt());
    }
    let mut ev = Evaluator::without_checks(f, oracle, env.process());
    ev.eval_bool(env, guard)
}
