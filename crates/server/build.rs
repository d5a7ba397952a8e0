//! Embed the browser table (`web/`) in the binary: every file there becomes an entry of `$OUT_DIR/assets.rs`, read
//! with `include_bytes!` (so a changed file rebuilds the crate, and what is served is always what is in `web/`).
//! The rules reference (docs/rules.md) and the example games (docs/examples) are embedded the same way, for the
//! table's rules pages.

use std::path::Path;

fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("web/ is readable").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            walk(&p, base, out);
        } else if let Ok(rel) = p.strip_prefix(base) {
            let name = rel.to_string_lossy().replace('\\', "/");
            if name.starts_with('.') || name.contains("/.") {
                continue;
            }
            out.push(format!("    ({name:?}, include_bytes!({:?})),\n", p.display().to_string()));
        }
    }
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let web = Path::new(&manifest).join("web");
    let docs = Path::new(&manifest).join("../../docs");
    println!("cargo:rerun-if-changed=web");
    println!("cargo:rerun-if-changed=../../docs/rules.md");
    println!("cargo:rerun-if-changed=../../docs/examples");
    let mut rows = Vec::new();
    walk(&web, &web, &mut rows);
    let mut code = format!(
        "/// The files of `web/`, by path.\npub(crate) static ASSETS: &[(&str, &[u8])] = &[\n{}];\n",
        rows.concat()
    );
    let rules = docs.join("rules.md").display().to_string();
    code += &format!("/// docs/rules.md.\npub(crate) static RULES_MD: &str = include_str!({rules:?});\n");
    let mut examples: Vec<_> = std::fs::read_dir(docs.join("examples"))
        .expect("docs/examples is readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    examples.sort();
    let rows: Vec<String> = examples
        .iter()
        .map(|p| {
            let name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            format!("    ({name:?}, include_str!({:?})),\n", p.display().to_string())
        })
        .collect();
    code += &format!(
        "/// The example records of docs/examples, by name.\npub(crate) static EXAMPLES: &[(&str, &str)] = &[\n{}];\n",
        rows.concat()
    );
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("assets.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
