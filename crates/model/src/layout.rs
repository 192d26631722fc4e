//! C object layout under the LP64 data model: sizes, alignments and field offsets
//! (what `sizeof`, `offsetof` and byte-level pointer arithmetic see).

use crate::expr::ExprKind;
use crate::types::{IntKind, RealKind, StructDef, StructId, Type};

/// Size and alignment of a C type, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeLayout {
    /// `sizeof`
    pub size: u64,
    /// `_Alignof`
    pub align: u64,
}

impl TypeLayout {
    const fn scalar(size: u64) -> TypeLayout {
        TypeLayout { size, align: size }
    }
}

/// The layout of `ty` (its structs defined in `structs`, e.g. `Model::structs`)
/// as gcc lays it out on x86-64 Linux: a field starts at the
/// next multiple of its alignment, a struct's alignment is its largest field's and
/// its size is rounded up to it; a union's members all start at 0. `None` when
/// some array extent in `ty` is not an integer literal (or for incomplete types).
pub fn layout_of(structs: &[StructDef], ty: &Type) -> Option<TypeLayout> {
    Some(match ty {
        Type::Void | Type::Bool | Type::Char => TypeLayout::scalar(1),
        Type::Int(k) => TypeLayout::scalar(match k {
            IntKind::UnsignedChar => 1,
            IntKind::Short | IntKind::UnsignedShort => 2,
            IntKind::Int | IntKind::Unsigned => 4,
            _ => 8,
        }),
        Type::Real(RealKind::Float) => TypeLayout::scalar(4),
        Type::Real(RealKind::Double) => TypeLayout::scalar(8),
        Type::Real(RealKind::LongDouble) => TypeLayout::scalar(16),
        Type::Pointer(_) | Type::Mpi(_) => TypeLayout::scalar(8),
        Type::Array(elem, Some(ext)) => match ext.kind {
            ExprKind::IntLit(n) if n >= 0 => {
                let e = layout_of(structs, elem)?;
                TypeLayout {
                    size: e.size.checked_mul(n as u64)?,
                    align: e.align,
                }
            }
            _ => return None,
        },
        Type::Array(_, None) | Type::Unknown => return None,
        Type::Struct(id) => struct_layout(structs, *id)?.0,
    })
}

/// The byte offset of field `field` of struct (or union) `id` (0 for a union's members).
pub fn field_offset(structs: &[StructDef], id: StructId, field: usize) -> Option<u64> {
    struct_layout(structs, id)?.1.get(field).copied()
}

fn round_up(x: u64, align: u64) -> Option<u64> {
    x.checked_add(align - 1).map(|y| y / align * align)
}

fn struct_layout(structs: &[StructDef], id: StructId) -> Option<(TypeLayout, Vec<u64>)> {
    let def = structs.get(id.0 as usize)?;
    let (mut end, mut align) = (0u64, 1u64);
    let mut offsets = Vec::with_capacity(def.fields.len());
    for field in &def.fields {
        let l = layout_of(structs, &field.ty)?;
        align = align.max(l.align);
        let start = if def.is_union() {
            0
        } else {
            round_up(end, l.align)?
        };
        offsets.push(start);
        end = end.max(start.checked_add(l.size)?);
    }
    Some((
        TypeLayout {
            size: round_up(end, align)?,
            align,
        },
        offsets,
    ))
}
