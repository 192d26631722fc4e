//! The source line under a diagnostic, rustc style, drawn by
//! `annotate-snippets`: a gutter with the line number, the line, and a caret
//! under the column. The front end's errors and the verifier's violations both
//! use it, so they look the same; it lives here because `tass-model` is the
//! lowest crate both depend on.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

/// Whether the snippet is drawn with ANSI colours (the caller decides from
/// `--color` and the terminal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SnippetColour {
    /// Plain text.
    #[default]
    Plain,
    /// ANSI colours (line numbers blue, the caret red).
    Ansi,
}

/// The line `text` (line `line` of its file, counted from 1) with a caret
/// under `column` (counted from 1, in characters), as
///
/// ```text
///   |
/// 2 |   return zz;
///   |          ^
/// ```
///
/// without a trailing newline. A column past the end of the line puts the
/// caret just after it; long lines are cut around the column.
pub fn source_snippet(text: &str, line: u32, column: u32, colour: SnippetColour) -> String {
    let text = text.trim_end();
    let wanted = column.max(1) as usize - 1;
    let start = text
        .char_indices()
        .nth(wanted)
        .map_or(text.len(), |(at, _)| at);
    let end = text[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8());
    let snippet = Snippet::source(text)
        .line_start(line.max(1) as usize)
        .annotation(AnnotationKind::Primary.span(start..end));
    let group = Group::with_level(Level::ERROR).element(snippet);
    let renderer = match colour {
        SnippetColour::Plain => Renderer::plain(),
        SnippetColour::Ansi => Renderer::styled(),
    };
    renderer.render(&[group])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_the_column() {
        assert_eq!(
            source_snippet("  return zz;", 2, 10, SnippetColour::Plain),
            "  |\n2 |   return zz;\n  |          ^"
        );
    }

    #[test]
    fn caret_past_the_end_and_multibyte_characters() {
        assert_eq!(
            source_snippet("é=1;", 7, 5, SnippetColour::Plain),
            "  |\n7 | é=1;\n  |     ^"
        );
        assert_eq!(
            source_snippet("é=1;", 7, 2, SnippetColour::Plain),
            "  |\n7 | é=1;\n  |  ^"
        );
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line = format!("{}x{}", "a".repeat(300), "b".repeat(300));
        let shown = source_snippet(&line, 1, 301, SnippetColour::Plain);
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[1].chars().count() < 200, "{shown}");
        let x = lines[1].find('x').expect("the column is shown");
        assert_eq!(lines[2].find('^'), Some(x), "{shown}");
    }

    #[test]
    fn colours_only_when_asked() {
        assert!(!source_snippet("x;", 1, 1, SnippetColour::Plain).contains('\x1b'));
        assert!(source_snippet("x;", 1, 1, SnippetColour::Ansi).contains('\x1b'));
    }
}
