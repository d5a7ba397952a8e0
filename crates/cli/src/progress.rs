//! Progress bars for long work, drawn on standard error only when it is a terminal.

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// A bar over `len` items called `unit` (`games`, `rounds`), with a readable rate (`2,209/s` rather than indicatif's
/// `2,209.3222/s`), the time elapsed and an estimate of the time left; `{msg}` follows.
pub(crate) fn bar(len: u64, unit: &str, hidden: bool) -> ProgressBar {
    if hidden {
        return ProgressBar::hidden();
    }
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{rate}}, {{elapsed}} elapsed, eta {{eta}}  {{msg}}");
    let style = ProgressStyle::with_template(&template).expect("a valid template").with_key(
        "rate",
        |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&rate(s.per_sec()));
        },
    );
    let bar = ProgressBar::new(len);
    bar.set_style(style);
    bar
}

/// A rate per second, with as many decimals as make sense.
pub(crate) fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() {
        "-/s".into()
    } else if per_sec >= 100.0 {
        format!("{}/s", thousands(per_sec.round() as u64))
    } else if per_sec >= 1.0 {
        format!("{per_sec:.1}/s")
    } else if per_sec > 0.0 {
        format!("{:.1}/min", per_sec * 60.0)
    } else {
        "-/s".into()
    }
}

/// `22150` as `22,150`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates_read_well() {
        assert_eq!(super::rate(2209.3222), "2,209/s");
        assert_eq!(super::rate(1_234_567.0), "1,234,567/s");
        assert_eq!(super::rate(12.345), "12.3/s");
        assert_eq!(super::rate(0.5), "30.0/min");
        assert_eq!(super::rate(0.0), "-/s");
    }
}
