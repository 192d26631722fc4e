//! C's one context-sensitive parse: `(v) - x` is a cast of `-x` to type `v` when `v`
//! names a type, and a subtraction when `v` is a variable. tree-sitter-c cannot know
//! which names are types, so it reads every such form as a cast. This pass finds the
//! casts whose "type" is a single identifier that no `typedef` in the unit declares,
//! applied to a unary `+ - * &` operand, and blanks the parentheses around the
//! identifier (same length, so every position stays valid): without them the parser
//! reads the binary operator, with C's precedence.

use std::collections::HashSet;

use tree_sitter::Node;

/// Type names the front understands without a `typedef` in the text.
const BUILTIN_TYPE_NAMES: &[&str] = &[
    "_Bool",
    "bool",
    "__tass_MPI_Comm",
    "__tass_MPI_Request",
    "__tass_MPI_Datatype",
    "__tass_MPI_Op",
    "__tass_MPI_Group",
    "__tass_MPI_Win",
];

/// The text with the parentheses of every false cast blanked, or `None` when the
/// unit has none.
pub(crate) fn blank_false_casts(text: &str, root: Node<'_>) -> Option<String> {
    let mut typedefs = HashSet::new();
    collect_typedef_names(root, text, &mut typedefs);
    let mut parens = Vec::new();
    find_false_casts(root, text, &typedefs, &mut parens);
    if parens.is_empty() {
        return None;
    }
    let mut bytes = text.as_bytes().to_vec();
    for (open, close) in parens {
        bytes[open] = b' ';
        bytes[close] = b' ';
    }
    // Only ASCII parentheses were replaced by spaces: still UTF-8.
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn collect_typedef_names<'a>(node: Node<'_>, text: &'a str, out: &mut HashSet<&'a str>) {
    if node.kind() == "type_definition" {
        let mut cursor = node.walk();
        for declarator in node.children_by_field_name("declarator", &mut cursor) {
            if let Some(name) = declared_name(declarator, text) {
                out.insert(name);
            }
        }
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect_typedef_names(child, text, out);
    }
}

/// The identifier a (possibly pointer, array or function) declarator declares.
fn declared_name<'a>(node: Node<'_>, text: &'a str) -> Option<&'a str> {
    match node.kind() {
        "type_identifier" | "identifier" => node.utf8_text(text.as_bytes()).ok(),
        _ => declared_name(node.child_by_field_name("declarator")?, text),
    }
}

fn find_false_casts(
    node: Node<'_>,
    text: &str,
    typedefs: &HashSet<&str>,
    out: &mut Vec<(usize, usize)>,
) {
    if node.kind() == "cast_expression" {
        if let Some(parens) = false_cast_parens(node, text, typedefs) {
            out.push(parens);
        }
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        find_false_casts(child, text, typedefs, out);
    }
}

/// The byte offsets of `(` and `)` when `node` is `(name) OP operand` with `name`
/// not a type and OP one of the operators that are also binary.
fn false_cast_parens(
    node: Node<'_>,
    text: &str,
    typedefs: &HashSet<&str>,
) -> Option<(usize, usize)> {
    let ty = node.child_by_field_name("type")?;
    if ty.kind() != "type_descriptor" {
        return None;
    }
    let name_node = ty.child_by_field_name("type")?;
    if name_node.kind() != "type_identifier" {
        return None;
    }
    // `(p[-3]) + x` reads as a cast to "array of p": only subscripts may follow the
    // name (a subscripted variable binds tighter than any binary operator, so the
    // parentheses can go).
    let mut declarator = ty.child_by_field_name("declarator");
    while let Some(d) = declarator {
        if d.kind() != "abstract_array_declarator" {
            return None;
        }
        declarator = d.child_by_field_name("declarator");
    }
    let name = name_node.utf8_text(text.as_bytes()).ok()?;
    if typedefs.contains(name) || BUILTIN_TYPE_NAMES.contains(&name) {
        return None;
    }
    let value = node.child_by_field_name("value")?;
    if !matches!(value.kind(), "unary_expression" | "pointer_expression") {
        return None;
    }
    let operator = value.child_by_field_name("operator")?;
    if !matches!(operator.kind(), "+" | "-" | "*" | "&") {
        return None;
    }
    let open = node.child(0)?;
    let close = ty.next_sibling()?;
    (open.kind() == "(" && close.kind() == ")").then(|| (open.start_byte(), close.start_byte()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tree_sitter::Parser;

    fn blank(src: &str) -> Option<String> {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_c::LANGUAGE.into())
            .expect("C grammar");
        // As the driver does: parse again until no false cast is left.
        let mut text = src.to_string();
        let mut changed = false;
        loop {
            let tree = parser.parse(&text, None).expect("tree");
            match blank_false_casts(&text, tree.root_node()) {
                Some(fixed) => (text, changed) = (fixed, true),
                None => return changed.then_some(text),
            }
        }
    }

    #[test]
    fn a_parenthesised_variable_before_a_binary_operator_is_not_a_cast() {
        // (tree-sitter already reads the later `(v1) * v0` and `(v0) - 1` as binary
        // once the first false cast is gone.)
        let src = "int f(int v0, int v1, int *a) { return v1 - (v0) + (a[2]) % 3 * (v1) * v0 & (v0) - 1; }";
        let out = blank(src).expect("false casts");
        assert!(out.contains("v1 -  v0  + (a[2])"), "{out}");
        let subscripted =
            blank("int f(int *p) { return (p[0]) / (p[-3]) + ((int)(3 % 4u)) / (-3); }")
                .expect("false casts");
        assert!(subscripted.contains(" p[-3]  +"), "{subscripted}");
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn real_casts_are_kept() {
        let src = "typedef int myint; int f(int x) { return (myint) -x + (int) -x + (_Bool) -x; }";
        assert_eq!(blank(src), None);
    }
}
