//! `carc bench --compare`: the binary compared with itself on a tiny workload prints every figure for both.

use std::process::Command;

fn carc(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_carc")).args(args).output().expect("carc runs");
    assert!(out.status.success(), "carc {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn compare_with_itself_prints_both_and_the_ratio() {
    let me = env!("CARGO_BIN_EXE_carc");
    let text = carc(&["bench", "--compare", me, "--games", "20", "--rounds", "2"]);
    assert!(text.starts_with(&format!("A = {me}\n")), "{text}");
    assert!(text.contains("2 rounds of `carc bench --games 10 --rounds 1`"), "{text}");
    for figure in ["base: games/s", "mid-game base state: bytes", "mid-game base state: clone ns"] {
        let line =
            text.lines().find(|l| l.trim_start().starts_with(figure)).unwrap_or_else(|| panic!("{figure}: {text}"));
        let numbers: Vec<f64> =
            line[line.find(figure).unwrap() + figure.len()..].split_whitespace().map(|w| w.parse().unwrap()).collect();
        assert_eq!(numbers.len(), 6, "{line}");
    }
    // The state's size is the same binary's: the ratio is exactly 1.
    let bytes = text.lines().find(|l| l.contains("bytes")).unwrap();
    assert_eq!(bytes.split_whitespace().filter(|w| *w == "1.000").count(), 2, "{bytes}");

    let json: serde_json::Value = serde_json::from_str(&carc(&[
        "bench",
        "--compare",
        me,
        "--ai",
        "--iterations",
        "5",
        "--rounds",
        "1",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["rounds"], 1);
    let figures = json["figures"].as_array().unwrap();
    let names: Vec<&str> = figures.iter().map(|f| f["figure"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "base, 1 thread: iterations/s",
            "base, 2 threads: iterations/s",
            "everything, 1 thread: iterations/s",
            "everything, 2 threads: iterations/s"
        ]
    );
    for f in figures {
        assert_eq!(f["a_rounds"].as_array().unwrap().len(), 1);
        assert_eq!(f["b_rounds"].as_array().unwrap().len(), 1);
        let ratio = f["ratio_best"].as_f64().unwrap();
        assert!(ratio > 0.0 && ratio.is_finite(), "{f}");
    }
}
