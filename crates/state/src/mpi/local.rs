//! MPI calls that only answer the calling process: the thread level
//! (`MPI_Init_thread`, `MPI_Query_thread`), `MPI_Get_processor_name` and
//! `MPI_Type_size`.

use tass_dynamic::api::{Handle, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::LibraryConstant as LC;
use tass_semantics::api::{EngineError, Property};
use tass_symbolic::api::Type;

use super::buffer::{write_buffer, Window};
use super::context::{write_through, MpiCall};
use crate::env::set_mpi;

/// `MPI_THREAD_SINGLE` .. `MPI_THREAD_MULTIPLE`, as `<mpi.h>` defines them.
const THREAD_SINGLE: i64 = 0;
const THREAD_MULTIPLE: i64 = 3;

/// `MPI_MAX_PROCESSOR_NAME`, as `<mpi.h>` defines it.
const MAX_PROCESSOR_NAME: i64 = 256;

/// The characters of the processor name tass gives (unknown, not NUL): the
/// name depends on the machine, so a program that looks at it is checked for
/// every name of this length.
const PROCESSOR_NAME_LENGTH: i64 = 8;

impl MpiCall<'_, '_, '_> {
    /// `MPI_Init_thread(&argc, &argv, required, &provided)`: the process gets the
    /// level it asks for (tass programs have one thread, so every level is kept).
    /// A level outside `MPI_THREAD_SINGLE..MPI_THREAD_MULTIPLE` is an error.
    pub(super) fn init_thread(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let required = ev.eval_int(&*env, call.arg(ArgRole::ThreadRequired))?;
        let valid = f.and(
            f.le(f.int(THREAD_SINGLE), required),
            f.le(required, f.int(THREAD_MULTIPLE)),
        );
        ev.check(
            &*env,
            valid,
            Property::MpiCount,
            || {
                format!(
                    "MPI_Init_thread asks for thread level {}, which is none of \
                 MPI_THREAD_SINGLE..MPI_THREAD_MULTIPLE",
                    f.pretty(required)
                )
            },
            call.span,
        );
        set_mpi(env, |m| m.thread_level = Some(required));
        self.write_level(required)
    }

    /// `MPI_Query_thread(&provided)`: the level `MPI_Init_thread` gave
    /// (`MPI_THREAD_SINGLE` after `MPI_Init`, as Open MPI and MPICH give).
    pub(super) fn query_thread(&mut self) -> Result<(), EngineError> {
        let f = self.ev.factory();
        let level = self.env.state.inner.procs[self.env.proc].mpi.thread_level;
        self.write_level(level.unwrap_or_else(|| f.int(THREAD_SINGLE)))
    }

    /// `*provided = level`.
    fn write_level(&mut self, level: tass_symbolic::api::Expr) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let provided = call.arg(ArgRole::ThreadProvided);
        write_through(ev, env, provided, Value::Data(level), "provided", call.span)
    }

    /// `MPI_Get_processor_name(name, &resultlen)`: `name` (which MPI requires to
    /// hold `MPI_MAX_PROCESSOR_NAME` characters) gets unknown non-NUL characters
    /// and a NUL; `resultlen` their number.
    pub(super) fn processor_name(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let mut chars = Vec::with_capacity(PROCESSOR_NAME_LENGTH as usize + 1);
        for _ in 0..PROCESSOR_NAME_LENGTH {
            let c = f.fresh_symbol("processor_name", Type::Char);
            ev.assumed.push(f.not(f.eq(c, f.char(0))));
            chars.push(c);
        }
        chars.push(f.char(0));
        let n = f.int(chars.len() as i64);
        let data = f.array_literal(Type::array(Type::Char, Some(n)), &chars);
        let window = Window {
            capacity: f.int(MAX_PROCESSOR_NAME),
            offset: f.int(0),
        };
        write_buffer(
            ev,
            env,
            call.arg(ArgRole::NameOut),
            window,
            data,
            n,
            call.span,
        )?;
        self.write_int_through(call.arg(ArgRole::NameLengthOut), PROCESSOR_NAME_LENGTH)
    }

    /// `MPI_Type_size(datatype, &size)`: the bytes of one element's data (of an
    /// LP64 machine, as mpicc compiles for: `MPI_DOUBLE_INT` is 12, its fields
    /// without padding).
    pub(super) fn type_size(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let v = ev.eval(&*env, call.arg(ArgRole::Datatype))?;
        let basic_size = |c: LC| match c {
            LC::MpiChar | LC::MpiByte => Some(1),
            LC::MpiInt | LC::MpiUnsigned | LC::MpiFloat => Some(4),
            LC::MpiLong | LC::MpiLongLong | LC::MpiDouble | LC::Mpi2Int => Some(8),
            LC::MpiDoubleInt => Some(12),
            LC::MpiLongDouble => Some(16),
            _ => None,
        };
        let size = match v {
            Value::Handle(Handle::Datatype(h)) => {
                super::datatypes::derived_size(env, h, |c| basic_size(c).unwrap_or(0))
            }
            Value::Handle(Handle::Constant(c)) => match basic_size(c) {
                Some(size) => size,
                None => {
                    return Err(EngineError::unsupported(
                        format!("MPI_Type_size of {}", c.c_name()),
                        call.span,
                    ))
                }
            },
            other => {
                return Err(EngineError::unsupported(
                    format!("MPI_Type_size of {other:?}"),
                    call.span,
                ))
            }
        };
        self.write_int_through(call.arg(ArgRole::SizeOut), size)
    }
}
