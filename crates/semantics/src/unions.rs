//! Unions: a program may read the member it last wrote.
//!
//! A union value is kept like a struct's, one slot per member. Writing through a
//! member makes every other member unwritten; reading a member while another one
//! holds the union's value would reinterpret that member's bytes (type punning),
//! which tass does not model: it is refused at run time, by name. Reading a union
//! no member of which was written is an uninitialised read, as for any variable.

use smallvec::SmallVec;
use tass_dynamic::api::{is_undefined_data, read_at, write_at, Root, Step, Value};
use tass_model::api::{Span, StructId, Type as MType};

use crate::env::Environment;
use crate::eval::Evaluator;
use crate::report::EngineError;

/// A member step on a path: (position of the step in the path, the union, the member).
type MemberStep = (usize, StructId, usize);

/// True if no part of `v` was ever written.
fn unwritten(f: &tass_symbolic::api::ExprFactory, v: &Value) -> bool {
    match v {
        Value::Undefined => true,
        Value::Data(x) => is_undefined_data(f, *x),
        Value::Struct(items) | Value::Array(items) => items.iter().all(|x| unwritten(f, x)),
        Value::Pointer(_) | Value::Handle(_) => false,
    }
}

impl Evaluator<'_> {
    /// The union member steps on `root`/`path` (none when the program has no union).
    fn union_member_steps(
        &self,
        env: &dyn Environment,
        root: Root,
        path: &[Step],
    ) -> SmallVec<[MemberStep; 1]> {
        let model = env.model();
        let mut steps = SmallVec::new();
        if !model.structs.iter().any(|s| s.is_union()) {
            return steps;
        }
        let Some(mut ty) = self.root_type(env, root) else {
            return steps;
        };
        for (k, step) in path.iter().enumerate() {
            ty = match (ty, *step) {
                (MType::Array(elem, _), Step::Index(_)) => *elem,
                (MType::Struct(id), Step::Field(j)) => {
                    let def = model.struct_def(id);
                    if def.is_union() {
                        steps.push((k, id, j as usize));
                    }
                    match def.fields.get(j as usize) {
                        Some(fd) => fd.ty.clone(),
                        None => break,
                    }
                }
                _ => break,
            };
        }
        steps
    }

    /// Refuses a read of a union member while another member holds the value.
    pub(crate) fn check_union_read(
        &self,
        env: &dyn Environment,
        root: Root,
        path: &[Step],
        span: &Span,
    ) -> Result<(), EngineError> {
        let f = self.factory();
        let Some(value) = env.get(root) else {
            return Ok(());
        };
        for (k, id, member) in self.union_member_steps(env, root, path) {
            let Ok(Value::Struct(slots)) = read_at(f, value, &path[..k]) else {
                continue;
            };
            if let Some(other) = (0..slots.len()).find(|&m| m != member && !unwritten(f, &slots[m]))
            {
                let def = env.model().struct_def(id);
                return Err(EngineError::unsupported(
                    format!(
                        "reading member `{}` of `union {}` while member `{}` holds its value \
                         (reinterpreting a union's bytes is not modelled; read the member last written)",
                        def.fields[member].name, def.name, def.fields[other].name
                    ),
                    span,
                ));
            }
        }
        Ok(())
    }

    /// After a write through union members on `place`, marks their sibling
    /// members unwritten.
    pub(crate) fn forget_other_union_members(
        &mut self,
        env: &mut dyn Environment,
        place: &(Root, SmallVec<[Step; 2]>),
        span: &Span,
    ) -> Result<(), EngineError> {
        let (root, path) = place;
        let f = self.factory();
        for (k, id, member) in self.union_member_steps(&*env, *root, path) {
            let fields = env.model().struct_def(id).fields.clone();
            for (m, fd) in fields.iter().enumerate().filter(|(m, _)| *m != member) {
                let blank = self.undefined_value(&*env, &fd.ty, span)?;
                let mut at: SmallVec<[Step; 2]> = path[..k].iter().copied().collect();
                at.push(Step::Field(m as u32));
                if let Some(slot) = env.get_mut(*root) {
                    write_at(f, slot, &at, blank).map_err(|e| {
                        EngineError::unsupported(format!("a write into a union: {e}"), span)
                    })?;
                }
            }
        }
        Ok(())
    }
}
