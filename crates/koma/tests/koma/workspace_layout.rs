//! The workspace's layout, checked like its behaviour: no Rust file of any
//! crate (`src`, `tests`, `examples`, `benches`) runs past 1,000 lines, and
//! no crate's modules import each other in a cycle. It is a test of the
//! `koma` crate, the top of the workspace, and reads the whole workspace
//! from `CARGO_MANIFEST_DIR/../..`.
//!
//! # What counts as an import cycle
//!
//! Each file under a crate's `src` is a module named by its path:
//! `lib.rs`/`main.rs` is the crate root, `a/b.rs` and `a/b/mod.rs` are
//! `a::b` (files under `src/bin` and `#[path]` modules are not looked at).
//! A file *uses* a module when its code, outside comments and strings,
//! names a path into it: a `use` (groups such as `crate::{a, b::c}` too)
//! or a fully qualified path in an expression or type, starting with
//! `crate::`, `super::`, `self::`, a child module's name or a name an
//! earlier `use` of the file bound to a module. A path to an item names
//! the module whose file defines it: a name the module only re-exports
//! (`pub use child::Item`) is followed to the module it came from. Inline
//! modules belong to their file. What `#[cfg(test)]` items (a file's
//! `mod tests { … }`) use does not count: they are not built into the
//! crate, and a generic module's tests may well try it on the concrete
//! types built on it.
//!
//! A module's uses of its own descendants are not edges: a parent declares,
//! re-exports and uses its children, and that tree is not a cycle. Every
//! other use is an edge, its parent's and ancestors' items included (a
//! child's `use super::Item` where `Item` is defined in the parent's file).
//! A parent's uses of its children being no edges, such an edge closes a
//! cycle only when the parent's own file reaches back through a module
//! outside its own tree: two siblings that use each other directly or
//! through a re-export of their parent, or a chain of siblings that comes
//! back, is a cycle; a child using its parent that uses the child is not.
//! A consequence: the crate root, every module's ancestor, is never part of
//! a cycle.
//!
//! The test lists every strongly connected set of modules with one cycle
//! through it and the lines that make its edges.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest a Rust file of the workspace may be.
const MAX_LINES: usize = 1_000;

#[test]
fn no_rust_file_is_over_a_thousand_lines() {
    let root = workspace();
    let mut long = Vec::new();
    for crate_dir in crates(&root) {
        for part in ["src", "tests", "examples", "benches"] {
            for file in rust_files(&crate_dir.join(part)) {
                let text = fs::read_to_string(&file).expect("a readable source file");
                let lines = text.lines().count();
                if lines > MAX_LINES {
                    long.push(format!("  {} ({lines} lines)", relative(&root, &file)));
                }
            }
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them by concern):\n{}",
        long.join("\n")
    );
}

#[test]
fn no_crate_has_an_import_cycle() {
    let root = workspace();
    let mut report = Vec::new();
    for crate_dir in crates(&root) {
        let src = crate_dir.join("src");
        let files: Vec<SourceFile> = rust_files(&src)
            .into_iter()
            .filter(|file| !file.starts_with(src.join("bin")))
            .map(|file| SourceFile {
                within_src: relative(&src, &file),
                shown: relative(&root, &file),
                text: fs::read_to_string(&file).expect("a readable source file"),
            })
            .collect();
        for cycle in import_cycles(&files) {
            report.push(cycle.to_string());
        }
    }
    assert!(
        report.is_empty(),
        "import cycles between modules (move what both sides need into a module \
         of its own that both use):\n{}",
        report.join("\n")
    );
}

#[test]
fn no_path_leaves_the_repository() {
    // A clone anywhere must pass its tests, so no code, test or script names a
    // file outside the repository (test data lives in `testdata/`). A path in
    // a crate is taken from the crate's folder (`CARGO_MANIFEST_DIR` and a
    // test's working directory), except in `include_str!`-like macros and
    // `#[path]`, which Rust resolves from the file's own folder; anywhere
    // else from the file's folder. Paths built from separate `".."` parts at
    // run time are beyond this check.
    let root = workspace();
    let mut leaving = Vec::new();
    for file in code_files(&root) {
        let shown = relative(&root, &file);
        let text = fs::read_to_string(&file).expect("a readable text file");
        let folder = relative(&root, file.parent().expect("a folder"));
        let depth_of = |base: &str| base.split('/').filter(|part| !part.is_empty()).count();
        let crate_depth = shown.starts_with("crates/").then_some(2);
        for (number, line) in text.lines().enumerate() {
            let from_file = ["include_str!", "include_bytes!", "#[path"]
                .iter()
                .any(|macro_name| line.contains(macro_name));
            let depth = match crate_depth {
                Some(depth) if !from_file => depth,
                _ => depth_of(&folder),
            };
            if parent_steps(line) > depth {
                leaving.push(format!("  {shown}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        leaving.is_empty(),
        "paths that leave the repository (keep what the tests read in testdata/):\n{}",
        leaving.join("\n")
    );
}

/// The longest run of `..` steps in a path on `line` (`"../../x"` is 2).
/// A `..` is a step when it stands as a path part: after the start, a quote,
/// white space, `(`, `=` or `/`, and before `/`, a quote or the end; ranges
/// such as `0..n`, `[..]` and `..Default::default()` are not.
fn parent_steps(line: &str) -> usize {
    const BEFORE: &[char] = &['/', '"', '\'', '`', ' ', '\t', '(', '='];
    const AFTER: &[char] = &['/', '"', '\'', '`'];
    let mut longest = 0;
    let mut run = 0;
    let mut previous_end = usize::MAX;
    for (start, _) in line.match_indices("..") {
        let before = line[..start].chars().next_back();
        let after = line[start + 2..].chars().next();
        let is_step =
            before.is_none_or(|c| BEFORE.contains(&c)) && after.is_none_or(|c| AFTER.contains(&c));
        if !is_step {
            run = 0;
            continue;
        }
        // `../..`: this step follows the last one across a single `/`.
        run = if start == previous_end.wrapping_add(1) {
            run + 1
        } else {
            1
        };
        previous_end = start + 2;
        longest = longest.max(run);
    }
    longest
}

/// The code, tests and scripts of the repository (not its docs, build
/// output or installed packages), sorted.
fn code_files(root: &Path) -> Vec<PathBuf> {
    const CODE: [&str; 9] = ["rs", "ts", "mjs", "js", "sh", "args", "toml", "in", "py"];
    const SKIPPED: [&str; 5] = ["target", "node_modules", "dist", "output", ".git"];
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = ["crates", "web", "scripts", ".ci"]
        .iter()
        .map(|part| root.join(part))
        .collect();
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !SKIPPED.contains(&name) {
                    pending.push(path);
                }
                continue;
            }
            let extension = path.extension().and_then(|e| e.to_str());
            let script = extension.is_none()
                && (path.starts_with(root.join("scripts")) || path.starts_with(root.join(".ci")));
            if script || extension.is_some_and(|e| CODE.contains(&e)) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn parent_steps_are_counted_along_a_path() {
    assert_eq!(parent_steps(r#".join("../../testdata/records")"#), 2);
    // Built, so that this file itself names no path out of the repository.
    let out = format!(r#"concat!(env!("X"), "/{}shared")"#, "../".repeat(3));
    assert_eq!(parent_steps(&out), 3);
    assert_eq!(parent_steps(r#".join("../..")"#), 2);
    assert_eq!(parent_steps("cd \"$(dirname \"$0\")/..\""), 1);
    assert_eq!(parent_steps("for i in 0..10 { x[1..] }"), 0);
    assert_eq!(parent_steps("wait..."), 0);
}

/// The workspace's root directory.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root")
}

/// The workspace's crate directories, sorted.
fn crates(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .expect("a crates directory")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// Every `.rs` file under `dir`, sorted; none if `dir` does not exist.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `path` relative to `base`, with `/` between its parts.
fn relative(base: &Path, path: &Path) -> String {
    let parts: Vec<String> = path
        .strip_prefix(base)
        .expect("a path under its base")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// One file of a crate's `src`.
struct SourceFile {
    /// The path below `src`, such as `eval/see.rs`.
    within_src: String,
    /// The path the report shows.
    shown: String,
    text: String,
}

/// A module path, without `crate`: empty for the crate root.
type ModulePath = Vec<String>;

/// The module a file below `src` is.
fn module_of(within_src: &str) -> ModulePath {
    let mut parts: Vec<String> = within_src.split('/').map(str::to_owned).collect();
    let last = parts.pop().expect("a file name");
    match last.as_str() {
        "mod.rs" => {}
        "lib.rs" | "main.rs" if parts.is_empty() => {}
        name => parts.push(name.trim_end_matches(".rs").to_owned()),
    }
    parts
}

/// What the checker sees of Rust's tokens.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    /// Any other punctuation, or a number.
    Punct(char),
}

/// `source`'s tokens with their lines, comments and literals left out.
fn lex(source: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = source.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips a quoted literal whose opening quote is at `i`, to after its end.
    let skip_quoted = |mut i: usize, quote: char, line: &mut usize| {
        i += 1;
        while i < chars.len() && chars[i] != quote {
            if chars[i] == '\\' {
                i += 1;
            }
            if at(i) == '\n' {
                *line += 1;
            }
            i += 1;
        }
        i + 1
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '/' if at(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                }
            }
            '"' => i = skip_quoted(i, '"', &mut line),
            '\'' if at(i + 1) == '\\' || at(i + 2) == '\'' => i = skip_quoted(i, '\'', &mut line),
            c if is_ident(c) && !c.is_ascii_digit() => {
                let start = i;
                while i < chars.len() && is_ident(chars[i]) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
                if matches!(word.as_str(), "r" | "br" | "cr") && at(i + hashes) == '"' {
                    // A raw string: it ends at a quote followed by as many #.
                    i += hashes + 1;
                    while i < chars.len()
                        && !(chars[i] == '"'
                            && chars[i + 1..].iter().take(hashes).all(|&c| c == '#'))
                    {
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                    i += hashes + 1;
                } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                    i = skip_quoted(i, '"', &mut line);
                } else if word == "b" && at(i) == '\'' {
                    i = skip_quoted(i, '\'', &mut line);
                } else if word == "r" && hashes == 1 && is_ident(at(i + 1)) {
                    // A raw identifier, `r#name`.
                    let start = i + 1;
                    i = start;
                    while i < chars.len() && is_ident(chars[i]) {
                        i += 1;
                    }
                    tokens.push((Token::Ident(chars[start..i].iter().collect()), line));
                } else {
                    tokens.push((Token::Ident(word), line));
                }
            }
            c if c.is_ascii_digit() => {
                while i < chars.len() && is_ident(chars[i]) {
                    i += 1;
                }
                tokens.push((Token::Punct('0'), line));
            }
            ':' if at(i + 1) == ':' => {
                tokens.push((Token::PathSep, line));
                i += 2;
            }
            _ => {
                let token = match c {
                    '{' => Token::Open,
                    '}' => Token::Close,
                    ',' => Token::Comma,
                    ';' => Token::Semi,
                    '*' => Token::Star,
                    other => Token::Punct(other),
                };
                tokens.push((token, line));
                i += 1;
            }
        }
    }
    tokens
}

/// A path a file names.
struct Reference {
    /// The inline modules (`mod tests { … }`) it is written in.
    scope: Vec<String>,
    segments: Vec<String>,
    line: usize,
    /// For a `use`, the name it binds (`None` for `*` and `as _`).
    binds: Option<String>,
    is_use: bool,
}

/// A `{ … }` being read that matters: an inline module, or an item built
/// only for tests.
struct Block {
    module: Option<String>,
    depth: usize,
    test: bool,
}

/// Every path `source` names, outside `#[cfg(test)]` items, that could lead
/// into its own crate.
fn references(source: &str) -> Vec<Reference> {
    let tokens = lex(source);
    let ident = |i: usize| match tokens.get(i) {
        Some((Token::Ident(name), _)) => Some(name.as_str()),
        _ => None,
    };
    let is = |i: usize, token: Token| tokens.get(i).is_some_and(|(t, _)| *t == token);
    let cfg_test = [
        Token::Punct('#'),
        Token::Punct('['),
        Token::Ident("cfg".into()),
        Token::Punct('('),
        Token::Ident("test".into()),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    let mut found = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    // Whether the item being read is marked `#[cfg(test)]`.
    let mut test_item = false;
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        if cfg_test
            .iter()
            .enumerate()
            .all(|(k, token)| is(i + k, token.clone()))
        {
            test_item = true;
            i += cfg_test.len();
            continue;
        }
        let counted = !test_item && !blocks.iter().any(|block| block.test);
        let scope: Vec<String> = blocks
            .iter()
            .filter_map(|block| block.module.clone())
            .collect();
        let line = tokens[i].1;
        match &tokens[i].0 {
            Token::Ident(word)
                if word == "mod" && ident(i + 1).is_some() && is(i + 2, Token::Open) =>
            {
                depth += 1;
                blocks.push(Block {
                    module: ident(i + 1).map(str::to_owned),
                    depth,
                    test: test_item,
                });
                test_item = false;
                i += 3;
            }
            Token::Open => {
                depth += 1;
                if test_item {
                    blocks.push(Block {
                        module: None,
                        depth,
                        test: true,
                    });
                    test_item = false;
                }
                i += 1;
            }
            Token::Close => {
                if blocks.last().is_some_and(|block| block.depth == depth) {
                    blocks.pop();
                }
                depth -= 1;
                i += 1;
            }
            Token::Semi => {
                test_item = false;
                i += 1;
            }
            Token::Ident(word) if word == "use" => {
                i += 1;
                let mut trees = Vec::new();
                use_tree(&tokens, &mut i, Vec::new(), &mut trees);
                test_item = false;
                found.extend(
                    trees
                        .into_iter()
                        .filter(|_| counted)
                        .map(|(segments, binds)| Reference {
                            scope: scope.clone(),
                            segments,
                            line,
                            binds,
                            is_use: true,
                        }),
                );
            }
            Token::Ident(first)
                if is(i + 1, Token::PathSep) && !(i > 0 && is(i - 1, Token::PathSep)) =>
            {
                let mut segments = vec![first.clone()];
                i += 1;
                while is(i, Token::PathSep) && ident(i + 1).is_some() {
                    segments.push(ident(i + 1).expect("checked").to_owned());
                    i += 2;
                }
                if counted {
                    found.push(Reference {
                        scope,
                        segments,
                        line,
                        binds: None,
                        is_use: false,
                    });
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// Reads the use tree at `i` (after `use`, or inside a group), adding each
/// path it imports under `prefix` and the name it binds to `out`.
fn use_tree(
    tokens: &[(Token, usize)],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    while let Some((token, _)) = tokens.get(*i) {
        *i += 1;
        match token {
            Token::PathSep => path.push("::".into()),
            Token::Ident(name) => {
                path.push(name.clone());
                if matches!(tokens.get(*i), Some((Token::PathSep, _))) {
                    *i += 1;
                    continue;
                }
                if path.last().is_some_and(|last| last == "self") {
                    path.pop();
                }
                let mut binds = path.last().cloned();
                if let (Some((Token::Ident(word), _)), Some((Token::Ident(alias), _))) =
                    (tokens.get(*i), tokens.get(*i + 1))
                {
                    if word == "as" {
                        binds = (alias != "_").then(|| alias.clone());
                        *i += 2;
                    }
                }
                out.push((path, binds));
                return;
            }
            Token::Star => {
                out.push((path, None));
                return;
            }
            Token::Open => {
                while *i < tokens.len() && tokens[*i].0 != Token::Close {
                    use_tree(tokens, i, path.clone(), out);
                    if matches!(tokens.get(*i), Some((Token::Comma, _))) {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            _ => return,
        }
    }
}

/// A cycle of modules, as the report shows it.
#[derive(Debug)]
struct Cycle {
    /// The files of every module in the strongly connected set, sorted.
    members: Vec<String>,
    /// One cycle through them, its first file repeated at the end.
    path: Vec<String>,
    /// The lines that make the set's edges: `file:line uses path`.
    evidence: Vec<String>,
}

impl std::fmt::Display for Cycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "  {}", self.path.join(" -> "))?;
        if self.members.len() + 1 > self.path.len() {
            writeln!(
                f,
                "    (a set of {} modules: {})",
                self.members.len(),
                self.members.join(", ")
            )?;
        }
        for line in &self.evidence {
            writeln!(f, "    {line}")?;
        }
        Ok(())
    }
}

/// The import cycles among the modules of one crate's `src` files.
fn import_cycles(files: &[SourceFile]) -> Vec<Cycle> {
    let modules: BTreeMap<ModulePath, usize> = files
        .iter()
        .enumerate()
        .map(|(index, file)| (module_of(&file.within_src), index))
        .collect();
    let parsed: Vec<(ModulePath, Vec<Reference>)> = files
        .iter()
        .map(|file| (module_of(&file.within_src), references(&file.text)))
        .collect();
    let is_module_or_parent =
        |path: &[String]| modules.keys().any(|module| module.starts_with(path));
    // Where a path starting in `scope` leads, `bound` giving the names that
    // `use`s bind in each scope.
    let start = |scope: &ModulePath,
                 home: &ModulePath,
                 segments: &[String],
                 bound: &HashMap<ModulePath, HashMap<String, ModulePath>>|
     -> Option<ModulePath> {
        let joined = |mut base: ModulePath, rest: &[String]| {
            base.extend(rest.iter().cloned());
            base
        };
        match segments[0].as_str() {
            "crate" => Some(segments[1..].to_vec()),
            "self" => Some(joined(scope.clone(), &segments[1..])),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                let base = scope.get(..scope.len().checked_sub(ups)?)?.to_vec();
                Some(joined(base, &segments[ups..]))
            }
            name => {
                let mut within = scope.clone();
                loop {
                    if let Some(target) = bound.get(&within).and_then(|names| names.get(name)) {
                        return Some(joined(target.clone(), &segments[1..]));
                    }
                    if within.len() <= home.len() {
                        break;
                    }
                    within.pop();
                }
                let child = joined(scope.clone(), &segments[..1]);
                is_module_or_parent(&child).then(|| joined(child, &segments[1..]))
            }
        }
    };
    // What each scope's `use`s bind, in two rounds so that a `use` may
    // start from a name an earlier one bound.
    let mut bound: HashMap<ModulePath, HashMap<String, ModulePath>> = HashMap::new();
    for _ in 0..2 {
        let mut next: HashMap<ModulePath, HashMap<String, ModulePath>> = HashMap::new();
        for (home, references) in &parsed {
            for reference in references.iter().filter(|r| r.is_use) {
                let scope = [home.clone(), reference.scope.clone()].concat();
                let (Some(name), Some(target)) = (
                    &reference.binds,
                    start(&scope, home, &reference.segments, &bound),
                ) else {
                    continue;
                };
                next.entry(scope).or_default().insert(name.clone(), target);
            }
        }
        bound = next;
    }
    // The module whose file defines what `path` names, re-exports followed.
    let defining = |mut path: ModulePath| -> ModulePath {
        for _ in 0..16 {
            let module = (0..=path.len())
                .rev()
                .map(|len| path[..len].to_vec())
                .find(|prefix| modules.contains_key(prefix))
                .unwrap_or_default();
            let Some(name) = path.get(module.len()) else {
                return module;
            };
            match bound.get(&module).and_then(|names| names.get(name)) {
                Some(target) if target[..] != path[..=module.len()] => {
                    path = [target.clone(), path[module.len() + 1..].to_vec()].concat();
                }
                _ => return module,
            }
        }
        path
    };
    let mut edges: BTreeMap<usize, BTreeMap<usize, String>> = BTreeMap::new();
    for (index, (home, references)) in parsed.iter().enumerate() {
        for reference in references {
            let scope = [home.clone(), reference.scope.clone()].concat();
            let Some(path) = start(&scope, home, &reference.segments, &bound) else {
                continue;
            };
            let target = defining(path);
            if target.starts_with(home) {
                continue;
            }
            let Some(&to) = modules.get(&target) else {
                continue;
            };
            edges
                .entry(index)
                .or_default()
                .entry(to)
                .or_insert_with(|| {
                    format!(
                        "{}:{} uses {}",
                        files[index].shown,
                        reference.line,
                        reference.segments.join("::").replace("::::", "::")
                    )
                });
        }
    }
    strongly_connected(files.len(), &edges)
        .into_iter()
        .map(|set| {
            let mut members: Vec<String> = set.iter().map(|&m| files[m].shown.clone()).collect();
            members.sort();
            let first = *set
                .iter()
                .min_by_key(|&&m| &files[m].shown)
                .expect("not empty");
            let path = shortest_cycle(first, &set, &edges)
                .into_iter()
                .map(|m| files[m].shown.clone())
                .collect();
            let mut evidence: Vec<String> = set
                .iter()
                .flat_map(|from| edges[from].iter())
                .filter(|(to, _)| set.contains(to))
                .map(|(_, line)| line.clone())
                .collect();
            evidence.sort();
            Cycle {
                members,
                path,
                evidence,
            }
        })
        .collect()
}

/// The strongly connected sets of more than one node (Tarjan's algorithm).
fn strongly_connected(
    nodes: usize,
    edges: &BTreeMap<usize, BTreeMap<usize, String>>,
) -> Vec<BTreeSet<usize>> {
    struct State<'a> {
        edges: &'a BTreeMap<usize, BTreeMap<usize, String>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        sets: Vec<BTreeSet<usize>>,
    }
    fn visit(state: &mut State, node: usize) {
        state.index[node] = Some(state.next);
        state.low[node] = state.next;
        state.next += 1;
        state.stack.push(node);
        state.on_stack[node] = true;
        let targets: Vec<usize> = state
            .edges
            .get(&node)
            .map_or(Vec::new(), |t| t.keys().copied().collect());
        for to in targets {
            match state.index[to] {
                None => {
                    visit(state, to);
                    state.low[node] = state.low[node].min(state.low[to]);
                }
                Some(index) if state.on_stack[to] => state.low[node] = state.low[node].min(index),
                Some(_) => {}
            }
        }
        if Some(state.low[node]) == state.index[node] {
            let mut set = BTreeSet::new();
            loop {
                let member = state.stack.pop().expect("on the stack");
                state.on_stack[member] = false;
                set.insert(member);
                if member == node {
                    break;
                }
            }
            if set.len() > 1 {
                state.sets.push(set);
            }
        }
    }
    let mut state = State {
        edges,
        index: vec![None; nodes],
        low: vec![0; nodes],
        stack: Vec::new(),
        on_stack: vec![false; nodes],
        next: 0,
        sets: Vec::new(),
    };
    for node in 0..nodes {
        if state.index[node].is_none() {
            visit(&mut state, node);
        }
    }
    state.sets
}

/// The shortest cycle from `first` back to it within `set`, both ends
/// included.
fn shortest_cycle(
    first: usize,
    set: &BTreeSet<usize>,
    edges: &BTreeMap<usize, BTreeMap<usize, String>>,
) -> Vec<usize> {
    let mut came_from: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([first]);
    while let Some(node) = queue.pop_front() {
        for &to in edges.get(&node).map(|t| t.keys()).into_iter().flatten() {
            if !set.contains(&to) || came_from.contains_key(&to) {
                continue;
            }
            came_from.insert(to, node);
            if to == first {
                let mut path = vec![first];
                let mut at = node;
                while at != first {
                    path.push(at);
                    at = came_from[&at];
                }
                path.push(first);
                path.reverse();
                return path;
            }
            queue.push_back(to);
        }
    }
    vec![first]
}

/// The checker's own rules, on small made-up crates.
mod checker {
    use super::{import_cycles, SourceFile};

    fn cycles(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        let files: Vec<SourceFile> = files
            .iter()
            .map(|(path, text)| SourceFile {
                within_src: path.to_string(),
                shown: path.to_string(),
                text: text.to_string(),
            })
            .collect();
        import_cycles(&files)
            .into_iter()
            .map(|cycle| cycle.members)
            .collect()
    }

    #[test]
    fn a_parent_and_its_children_are_a_tree_not_a_cycle() {
        let found = cycles(&[
            ("lib.rs", "mod a; pub use a::Thing; fn f() { a::helper(); crate::a::b::g(); }"),
            ("a/mod.rs", "mod b; pub use b::Inner; pub struct Thing; pub(crate) use self::b::g; use crate::Root;"),
            ("a/b.rs", "use super::Thing;\nuse crate::a;\npub struct Inner; fn h() { super::helper(); a::Thing; }"),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn siblings_that_use_each_other_are_a_cycle() {
        let found = cycles(&[
            ("lib.rs", "mod a; mod b;"),
            ("a.rs", "use crate::{b::X, c};"),
            ("b.rs", "fn f() { super::a::y(); }"),
        ]);
        assert_eq!(found, [["a.rs", "b.rs"]]);
    }

    #[test]
    fn a_re_export_of_the_parent_is_followed_to_its_module() {
        let found = cycles(&[
            (
                "p/mod.rs",
                "mod x; mod y; pub use x::X; pub use self::y::{Y as Why};",
            ),
            ("p/x.rs", "use super::Why;"),
            ("p/y.rs", "fn f() -> super::X { todo!() }"),
            ("p/z.rs", "use super::{x, Why};"),
        ]);
        assert_eq!(found, [["p/x.rs", "p/y.rs"]]);
    }

    #[test]
    fn a_chain_through_the_parents_file_is_a_cycle() {
        // `a` uses its parent's own item; the parent's file uses `b`, a
        // module outside its tree, which uses `a`.
        let found = cycles(&[
            ("lib.rs", "mod p; mod b;"),
            ("p/mod.rs", "mod a; pub struct Item(crate::b::B);"),
            ("p/a.rs", "use super::Item;"),
            ("b.rs", "pub struct B; use crate::p::a;"),
        ]);
        assert_eq!(found, [["b.rs", "p/a.rs", "p/mod.rs"]]);
    }

    #[test]
    fn comments_strings_and_tests_do_not_count() {
        let found = cycles(&[
            ("a.rs", "// use crate::b;\n/* crate::b::x() */ const S: &str = \"crate::b::x\"; const R: &str = r#\"super::b\"#;"),
            ("b.rs", "use crate::a;"),
            ("c.rs", "fn f() -> char { '{' } mod inner { use super::super::d::D; } #[cfg(test)] mod tests { use crate::e::E; }"),
            ("d.rs", "use crate::c;"),
            ("e.rs", "use crate::c::f;"),
        ]);
        assert_eq!(found, [["c.rs", "d.rs"]]);
    }
}
