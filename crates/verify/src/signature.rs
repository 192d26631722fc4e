//! The input/output signature of a model, and the check that two compared models
//! agree on it.

use tass_model::api::{ExprKind, Model, Type, VarId};

use crate::error::SignatureMismatch;

/// A type as far as comparison cares: C's integer kinds all denote the integers,
/// its floating kinds the reals.
fn shape(model: &Model, ty: &Type) -> String {
    match ty {
        Type::Void => "void".into(),
        Type::Bool => "_Bool".into(),
        Type::Char => "char".into(),
        Type::Int(_) => "integer".into(),
        Type::Real(_) => "real".into(),
        Type::Pointer(t) => format!("pointer to {}", shape(model, t)),
        Type::Array(t, extent) => {
            let extent = match extent.as_deref().map(|e| &e.kind) {
                Some(ExprKind::IntLit(n)) => format!("[{n}]"),
                _ => "[]".into(),
            };
            format!("array{extent} of {}", shape(model, t))
        }
        Type::Struct(id) => format!("struct {}", model.struct_def(*id).name),
        Type::Mpi(h) => h.c_name().into(),
        Type::Unknown => "unknown".into(),
    }
}

fn describe(model: &Model, vars: &[VarId]) -> Vec<(String, String)> {
    vars.iter()
        .map(|&v| {
            let var = model.var(v);
            (var.name.clone(), shape(model, &var.ty))
        })
        .collect()
}

/// The inputs (or the outputs) of one program.
struct Declared<'m> {
    model: &'m Model,
    vars: &'m [VarId],
}

impl<'m> Declared<'m> {
    fn inputs(model: &'m Model) -> Declared<'m> {
        Declared {
            model,
            vars: &model.inputs,
        }
    }

    fn outputs(model: &'m Model) -> Declared<'m> {
        Declared {
            model,
            vars: &model.outputs,
        }
    }
}

/// The differences between the specification's and the implementation's
/// `what` (inputs or outputs), by name and type, as messages into `problems`.
fn compare_lists(what: &str, spec: Declared<'_>, imp: Declared<'_>, problems: &mut Vec<String>) {
    let s = describe(spec.model, spec.vars);
    let i = describe(imp.model, imp.vars);
    let (spec, imp) = (spec.model, imp.model);
    for (name, ty) in &s {
        match i.iter().find(|(n, _)| n == name) {
            None => problems.push(format!(
                "{what} `{name}` of the specification ({}) has no counterpart in the \
                 implementation ({})",
                spec.name, imp.name
            )),
            Some((_, ity)) if ity != ty => problems.push(format!(
                "{what} `{name}` is {ty} in the specification but {ity} in the implementation"
            )),
            Some(_) => {}
        }
    }
    for (name, _) in &i {
        if !s.iter().any(|(n, _)| n == name) {
            problems.push(format!(
                "{what} `{name}` of the implementation ({}) has no counterpart in the \
                 specification ({})",
                imp.name, spec.name
            ));
        }
    }
}

/// Checks that `spec` and `imp` have the same inputs and outputs (by name and type).
/// The error lists every mismatch (its message says what to do).
pub fn check_signatures(spec: &Model, imp: &Model) -> Result<(), SignatureMismatch> {
    let mut problems = Vec::new();
    let (inputs, outputs) = (Declared::inputs, Declared::outputs);
    compare_lists("input", inputs(spec), inputs(imp), &mut problems);
    compare_lists("output", outputs(spec), outputs(imp), &mut problems);
    if spec.outputs.is_empty() && imp.outputs.is_empty() {
        problems.push(
            "neither program declares an output: mark the variables to compare with \
             `#pragma TASS output` before their declarations"
                .into(),
        );
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(SignatureMismatch { problems })
    }
}
