//! Embeds the browser client (`web/dist`, built by `npm run build` in
//! `web/`) in the server. Without a build the server still compiles and
//! serves a page that says how to make one, so `cargo test` needs no
//! Node.js.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest.join("../../web");
    let dist = web.join("dist");
    // Watching `dist` sees every rebuilt file; while it does not exist,
    // watching `web/` sees it appear.
    if dist.is_dir() {
        println!("cargo:rerun-if-changed={}", dist.display());
    } else if web.is_dir() {
        println!("cargo:rerun-if-changed={}", web.display());
    }
    // sqlx::migrate! embeds the migrations: a new file must rebuild.
    println!("cargo:rerun-if-changed=migrations");
    let mut files = Vec::new();
    if dist.join("index.html").is_file() {
        collect(&dist, &dist, &mut files);
    }
    files.sort();
    let mut out = String::from(
        "/// The client's files: path under `web/dist` and contents.\n\
         pub static FILES: &[(&str, &[u8])] = &[\n",
    );
    for (name, path) in &files {
        let _ = writeln!(out, "    ({name:?}, include_bytes!({path:?})),");
    }
    out.push_str("];\n");
    let target =
        PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("web_assets.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, files);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let abs = path.canonicalize().unwrap_or(path.clone());
            files.push((name, abs.display().to_string()));
        }
    }
}
