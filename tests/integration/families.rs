//! Families marked with a complexity: the fit in the bench binary's own table and in cargo nbench's reports.

use crate::helpers::{Fixture, QUICK, Run};

use nbench::__private::stats::{Complexity, fit};

/// The shape a family line names, `O(shape), c · shape, RMS r%` (the same
/// shape twice), for the line beginning with `family`.
fn shape_in_line<'a>(run: &'a Run, family: &str) -> &'a str {
    let line = run.line(&format!("  {family}: O("));
    let rest = line.split_once(": O(").unwrap().1;
    let (shape, rest) = rest.split_once("), ").unwrap();
    assert!(rest.contains(&format!(" · {shape}, RMS ")), "{line}");
    shape
}

/// Which shape fits a family's times, and how well, depends on the machine:
/// a busy one slows one point and bends the fit (measured in CI: the top
/// point of `scale/linear` slowed ~15 % read N log N). Recovering each shape
/// from noisy times is the unit tests' part (`stats::complexity`). Here:
/// the fit is made, shown in both tables, and is the one its own points give.
#[test]
fn complexity_is_fitted_standalone_and_under_cargo_nbench() {
    let fx = Fixture::new("basic");
    let exe = fx.bench_exe("scaling");
    let mut args = vec!["--bench"];
    args.extend_from_slice(QUICK);
    let run = Run::exe(&exe, &fx.dir, &args);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let auto: Vec<&str> = Complexity::SHAPES.iter().map(|c| c.name()).collect();
    for family in ["scale/linear", "scale/quadratic"] {
        let shape = shape_in_line(&run, family);
        assert!(auto.contains(&shape), "{family}: {shape}");
    }
    assert_eq!(shape_in_line(&run, "scale/custom"), "N^2");

    // One process: QUICK's 20 ms split over epochs would leave each a few ms.
    let mut args = vec![
        "--bench", "scaling", "--format", "json", "--epochs", "1", "scale/",
    ];
    args.extend_from_slice(QUICK);
    let doc = fx.nbench(&args).json();
    let fits = doc["targets"][0]["fits"]
        .as_array()
        .expect("fits in the record");
    let declared = [
        ("scale/linear", Complexity::Auto, 5),
        ("scale/quadratic", Complexity::Auto, 4),
        ("scale/custom", Complexity::Custom("N^2", |n| n * n), 3),
    ];
    assert_eq!(fits.len(), declared.len());
    for (f, (family, complexity, members)) in fits.iter().zip(declared) {
        assert_eq!(f["family"], family);
        let points = f["points"].as_array().unwrap();
        assert_eq!(points.len(), members, "{f}");
        let n: Vec<f64> = points.iter().map(|p| p[0].as_f64().unwrap()).collect();
        let t: Vec<f64> = points.iter().map(|p| p[1].as_f64().unwrap()).collect();
        assert!(n.windows(2).all(|w| w[0] < w[1]), "{f}");
        let expected = fit(&n, &t, complexity).unwrap();
        assert_eq!(f["complexity"], expected.complexity.name(), "{f}");
        let close = |key: &str, want: f64| {
            let got = f[key].as_f64().unwrap();
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1e-12),
                "{key}: {f}"
            );
        };
        close("coefficient_ns", expected.coefficient);
        close("rms", expected.rms);
    }
    assert_eq!(fits[1]["points"][0][0], 32.0);

    // A family measured only in part still fits what it has; a single member fits nothing.
    let mut args = vec!["--bench", "scaling", "scale/custom/32"];
    args.extend_from_slice(QUICK);
    let run = fx.nbench(&args);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(!run.stdout.contains("complexity"), "{}", run.stdout);
    let mut args = vec![
        "--bench",
        "scaling",
        "--format",
        "markdown",
        "scale/quadratic",
    ];
    args.extend_from_slice(QUICK);
    let run = fx.nbench(&args);
    assert!(
        run.stdout.contains("| `scale/quadratic` | O(N²) |"),
        "{}",
        run.stdout
    );
}
