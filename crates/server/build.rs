//! Embed the browser table (`web/`) in the binary: every file there becomes an entry of `$OUT_DIR/assets.rs`, read
//! with `include_bytes!` (so a changed file rebuilds the crate, and what is served is always what is in `web/`).

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
    println!("cargo:rerun-if-changed=web");
    let mut rows = Vec::new();
    walk(&web, &web, &mut rows);
    let code = format!(
        "/// The files of `web/`, by path.\npub(crate) static ASSETS: &[(&str, &[u8])] = &[\n{}];\n",
        rows.concat()
    );
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("assets.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
