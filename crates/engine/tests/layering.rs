//! The engine's modules form layers (docs/architecture.md, "Layers"): the
//! ground, the vocabulary, the rules and the views, each importing only its
//! own layer and those below. This test reads the sources' `crate::` paths
//! (in `use` lines and in code; comments, strings and `#[cfg(test)]` items
//! left out), so an import that climbs a layer, or a new circle, fails here
//! with the line to move.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module is a file of `src/` without its
/// `.rs`, or a folder module (`expansions/plague`, `openspiel`) whose files
/// all count as that module. Every module must be listed: a new file is
/// given its layer here.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "ground",
        &[
            "geometry", "limits", "rng", "seat", "catalog", "map", "board", "features",
        ],
    ),
    (
        "vocabulary",
        &["action", "record", "config", "view", "expansions/registry"],
    ),
    (
        "rules",
        &[
            "game",
            "scoring",
            "deck",
            "options",
            "feature",
            "codec",
            "expansions",
            "expansions/gingerbread",
            "expansions/halfsies",
            "expansions/inns_cathedrals",
            "expansions/traders_builders",
            "expansions/princess_dragon",
            "expansions/abbey_mayor",
            "expansions/tower",
            "expansions/map_chips",
            "expansions/plague",
            "expansions/river",
        ],
    ),
    ("views", &["state", "openspiel", "sim", "replay"]),
];

/// The one circle the layers keep, inside the rules: the `Expansion`
/// trait's hooks take `&mut Game`, and the turn machine calls them, so the
/// turn machine and the expansions import each other; scoring, the deck
/// and the options call the hooks and are called by the turn machine, so
/// they sit in the same circle, as does the action codec, whose
/// numbering adds up the expansions' segments. It must stay inside the rules layer and
/// contain the turn machine and the expansions' trait.
const RULES_CIRCLE_CORE: &[&str] = &["game", "expansions"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src/`, as its path relative to `src/`.
fn files(dir: &Path, rel: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let rel_name = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        if p.is_dir() {
            files(&p, &rel_name, out);
        } else if name.ends_with(".rs") {
            out.push(rel_name);
        }
    }
}

/// The module a file belongs to, and the module path its `super` means.
/// `a/b.rs` and `a/b/mod.rs` and `a/b/c.rs` are all module `a/b` when `a/b`
/// is a folder module below `expansions/` or at the top; `expansions/mod.rs`
/// is `expansions` itself.
fn module_of(file: &str) -> String {
    let no_ext = file.trim_end_matches(".rs");
    let parts: Vec<&str> = no_ext.split('/').collect();
    match parts.as_slice() {
        [one] => one.to_string(),
        ["expansions", "mod"] => "expansions".into(),
        ["expansions", name] => format!("expansions/{name}"),
        ["expansions", name, ..] => format!("expansions/{name}"),
        [top, ..] => top.to_string(),
        [] => String::new(),
    }
}

/// The source with comments, string and char literals blanked, and every
/// `#[cfg(test)]` item cut, so only the compiled library's paths remain.
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'#') | Some(b'"')) && {
            let prev = if i == 0 { b' ' } else { b[i - 1] };
            !(prev.is_ascii_alphanumeric() || prev == b'_')
        } {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('x', '\n', '{') or a lifetime ('a): only the
            // former closes within three bytes or after an escape.
            if b.get(i + 1) == Some(&b'\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != b'\'' {
                    j += 1;
                }
                i = j + 1;
                out.push_str("' '");
            } else if b.get(i + 2) == Some(&b'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    cut_test_items(&out)
}

/// Cuts every item marked `#[cfg(test)]`: through its `;` or its block.
fn cut_test_items(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let open = after.find('{');
        let semi = after.find(';');
        let end = match (open, semi) {
            (Some(o), Some(e)) if e < o => e + 1,
            (Some(o), _) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (k, ch) in after[o..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = o + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(e)) => e + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim().trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let prefix = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (k, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..k], &prefix, out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], &prefix, out);
    } else if !tree.is_empty() {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        if path == "self" {
            out.push(prefix.to_string());
        } else {
            out.push(join(prefix, path));
        }
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}::{b}"),
    }
}

/// The `crate::` paths a stripped file names, absolute (`super::` resolved
/// from the file's place), with the line of each.
fn paths(file: &str, code: &str) -> Vec<(String, usize)> {
    // The module path `super` means in this file.
    let mut dir: Vec<&str> = file.trim_end_matches(".rs").split('/').collect();
    if dir.last() == Some(&"mod") {
        dir.pop();
    }
    dir.pop();
    let here = dir.join("::");
    let mut out = Vec::new();
    let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
    // `use` statements, whole.
    let mut search = 0;
    while let Some(k) = code[search..].find("use ") {
        let at = search + k;
        search = at + 4;
        let before = code[..at].chars().last().unwrap_or(' ');
        if before.is_alphanumeric() || before == '_' {
            continue;
        }
        let end = code[at..].find(';').map_or(code.len(), |e| at + e);
        let tree = code[at + 4..end].trim();
        let mut expanded = Vec::new();
        if let Some(t) = tree.strip_prefix("crate::") {
            expand(t, "", &mut expanded);
        } else if tree.starts_with("super::") {
            let mut base: Vec<&str> = here.split("::").filter(|s| !s.is_empty()).collect();
            let mut t = tree;
            while let Some(r) = t.strip_prefix("super::") {
                base.pop();
                t = r;
            }
            expand(t, &base.join("::"), &mut expanded);
        }
        for p in expanded {
            out.push((p, line_of(at)));
        }
    }
    // Paths in code: `crate::a::b` and `super::x`.
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().last().unwrap_or(' ');
        if before.is_alphanumeric() || before == '_' {
            continue;
        }
        let rest = &code[at + 7..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let p = rest[..len].trim_end_matches(':');
        if !p.is_empty() {
            out.push((p.to_string(), line_of(at)));
        }
    }
    for (at, _) in code.match_indices("super::") {
        let before = code[..at].chars().last().unwrap_or(' ');
        if before.is_alphanumeric() || before == '_' || before == ':' {
            continue;
        }
        let mut base: Vec<&str> = here.split("::").filter(|s| !s.is_empty()).collect();
        let mut t = &code[at..];
        while let Some(r) = t.strip_prefix("super::") {
            base.pop();
            t = r;
        }
        let len = t
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(t.len());
        let p = join(&base.join("::"), t[..len].trim_end_matches(':'));
        out.push((p, line_of(at)));
    }
    out
}

/// The module a path names: its first segment, or for `expansions::x`
/// the expansion module `x` when there is one; names the crate root
/// re-exports resolve to the module they come from.
fn target(path: &str, modules: &BTreeSet<String>, root: &BTreeMap<String, String>) -> String {
    let segs: Vec<&str> = path.split("::").collect();
    let first = segs[0];
    if first == "expansions" {
        if let Some(second) = segs.get(1) {
            let sub = format!("expansions/{second}");
            if modules.contains(&sub) {
                return sub;
            }
        }
        return "expansions".into();
    }
    if modules.contains(first) {
        return first.to_string();
    }
    root.get(first)
        .cloned()
        .unwrap_or_else(|| first.to_string())
}

/// lib.rs's `pub use module::{Name, …}` lines: name to module.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let mut search = 0;
    while let Some(k) = lib[search..].find("pub use ") {
        let at = search + k;
        let end = lib[at..].find(';').map_or(lib.len(), |e| at + e);
        let mut expanded = Vec::new();
        expand(&lib[at + 8..end], "", &mut expanded);
        for p in expanded {
            let segs: Vec<&str> = p.split("::").collect();
            if let (Some(m), Some(name)) = (segs.first(), segs.last()) {
                map.insert(name.to_string(), m.to_string());
            }
        }
        search = end;
    }
    map
}

struct Graph {
    /// module → (module it imports → first file and line that does)
    edges: BTreeMap<String, BTreeMap<String, (String, usize)>>,
}

fn graph() -> Graph {
    let root = src();
    let mut all = Vec::new();
    files(&root, "", &mut all);
    let modules: BTreeSet<String> = all
        .iter()
        .filter(|f| f.as_str() != "lib.rs")
        .map(|f| module_of(f))
        .collect();
    let lib = std::fs::read_to_string(root.join("lib.rs")).expect("lib.rs");
    let reexports = root_reexports(&strip(&lib));
    let mut edges: BTreeMap<String, BTreeMap<String, (String, usize)>> = BTreeMap::new();
    for f in all.iter().filter(|f| f.as_str() != "lib.rs") {
        let text = std::fs::read_to_string(root.join(f)).expect("a source file");
        let from = module_of(f);
        let entry = edges.entry(from.clone()).or_default();
        for (p, line) in paths(f, &strip(&text)) {
            let to = target(&p, &modules, &reexports);
            if to != from && modules.contains(&to) {
                entry.entry(to).or_insert((f.clone(), line));
            }
        }
    }
    Graph { edges }
}

fn layer_of(module: &str) -> Option<(usize, &'static str)> {
    LAYERS
        .iter()
        .enumerate()
        .find(|(_, (_, mods))| mods.contains(&module))
        .map(|(i, (name, _))| (i, *name))
}

/// Strongly connected components (Tarjan), each sorted.
fn components(g: &Graph) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit(t: &mut T<'_>, v: &str) {
        t.index.insert(v.into(), t.next);
        t.low.insert(v.into(), t.next);
        t.next += 1;
        t.stack.push(v.into());
        t.on.insert(v.into());
        let succ: Vec<String> =
            t.g.edges
                .get(v)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
        for w in succ {
            if !t.index.contains_key(&w) {
                visit(t, &w);
                let lw = t.low[&w];
                let lv = t.low[v];
                t.low.insert(v.into(), lv.min(lw));
            } else if t.on.contains(&w) {
                let iw = t.index[&w];
                let lv = t.low[v];
                t.low.insert(v.into(), lv.min(iw));
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(&w);
                let done = w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            comp.sort();
            t.out.push(comp);
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    let nodes: Vec<String> = g.edges.keys().cloned().collect();
    for v in nodes {
        if !t.index.contains_key(&v) {
            visit(&mut t, &v);
        }
    }
    t.out
}

#[test]
fn the_reader_sees_the_imports_it_must_see() {
    // The reader itself: if it lost the paths, every other test here would
    // pass vacuously.
    let g = graph();
    let game = &g.edges["game"];
    for m in ["board", "catalog", "expansions", "scoring", "action"] {
        assert!(
            game.contains_key(m),
            "game.rs imports {m}, yet the reader did not see it"
        );
    }
    assert!(g.edges["state"].contains_key("game"));
    assert!(g.edges["replay"].contains_key("record"));
    let mut v = Vec::new();
    expand("a::{b, c::{d, e as f}, self}", "", &mut v);
    assert_eq!(v, ["a::b", "a::c::d", "a::c::e", "a"]);
    let code = strip("// crate::game\nlet s = \"crate::game\";\n#[cfg(test)]\nmod tests { use crate::game; }\nuse crate::board::Board;");
    assert!(
        !code.contains("game"),
        "comments, strings and tests are cut: {code}"
    );
    assert!(code.contains("crate::board"));
}

#[test]
fn every_module_has_a_layer() {
    let g = graph();
    let missing: Vec<&String> = g.edges.keys().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        missing.is_empty(),
        "give these modules a layer in LAYERS (tests/layering.rs) and docs/architecture.md: {missing:?}"
    );
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let g = graph();
    let mut wrong = Vec::new();
    for (from, tos) in &g.edges {
        let Some((lf, nf)) = layer_of(from) else {
            continue;
        };
        for (to, (file, line)) in tos {
            let Some((lt, nt)) = layer_of(to) else {
                continue;
            };
            if lt > lf {
                wrong.push(format!(
                    "{file}:{line}: {from} ({nf}) imports {to} ({nt}); move the item it needs down to the {nf} or below"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that climb a layer:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_only_circle_is_the_turn_machine_and_its_expansions() {
    let g = graph();
    let circles: Vec<Vec<String>> = components(&g).into_iter().filter(|c| c.len() > 1).collect();
    assert!(
        circles.len() <= 1,
        "more than one circle of imports: {circles:?}"
    );
    let rules = layer_of("game").map(|l| l.0);
    for c in &circles {
        for m in c {
            assert_eq!(
                layer_of(m).map(|l| l.0),
                rules,
                "the circle {c:?} reaches {m}, outside the rules layer"
            );
        }
        for core in RULES_CIRCLE_CORE {
            assert!(
                c.iter().any(|m| m == core),
                "the rules' circle {c:?} no longer holds {core}: update RULES_CIRCLE_CORE and docs/architecture.md"
            );
        }
    }
}
