//! Every statistic of `nbench::__private::stats` against values computed by NumPy and SciPy
//! (`harness/tests/data/reference.json`, made by `cargo xtask refdata`).

use nbench::__private::protocol::json::Json;
use nbench::__private::stats::{
    Complexity, OutlierMode, Summary, bandwidth, benjamini_hochberg, density, fit, mann_whitney,
    percentile_sorted, ratio_t_test, sign_test, t_cdf, t_quantile, variance,
};

const REL: f64 = 1e-9;

fn data() -> Json {
    let text = include_str!("data/reference.json");
    Json::parse(text).expect("the reference data parses")
}

fn obj(v: &Json) -> &[(String, Json)] {
    match v {
        Json::Obj(fields) => fields,
        other => panic!("expected an object, got {other:?}"),
    }
}

fn arr(v: &Json) -> &[Json] {
    match v {
        Json::Arr(items) => items,
        other => panic!("expected an array, got {other:?}"),
    }
}

fn num(v: &Json, key: &str) -> f64 {
    v.get(key)
        .and_then(Json::as_f64)
        .unwrap_or_else(|| panic!("no number `{key}` in {v:?}"))
}

fn nums(v: &Json) -> Vec<f64> {
    arr(v).iter().map(|x| x.as_f64().unwrap()).collect()
}

/// Equal to `REL` relative, or 1e-12 absolute where the reference is (near) zero.
fn close(what: &str, got: f64, want: f64) {
    let ok = if want.abs() < 1e-3 {
        (got - want).abs() <= 1e-12_f64.max(REL * want.abs())
    } else {
        ((got - want) / want).abs() <= REL
    };
    assert!(ok, "{what}: got {got:e}, SciPy/NumPy {want:e}");
}

#[test]
fn summaries_match_numpy() {
    let d = data();
    for (name, case) in obj(d.get("summaries").unwrap()) {
        let x = nums(case.get("x").unwrap());
        let s = Summary::new(&x).unwrap();
        let at = |stat: &str| format!("{name}.{stat}");
        close(&at("mean"), s.mean, num(case, "mean"));
        close(&at("median"), s.median, num(case, "median"));
        close(&at("mad"), s.mad, num(case, "mad"));
        close(&at("min"), s.min, num(case, "min"));
        close(&at("max"), s.max, num(case, "max"));
        let mut sorted = x.clone();
        sorted.sort_by(f64::total_cmp);
        for (p, want) in obj(case.get("percentiles").unwrap()) {
            let p: f64 = p.parse().unwrap();
            let got = percentile_sorted(&sorted, p);
            close(&at(&format!("p{p}")), got, want.as_f64().unwrap());
        }
        let [lo, hi] = nums(case.get("median_ci").unwrap())[..] else {
            panic!()
        };
        assert_eq!(
            (s.median_ci.lo, s.median_ci.hi),
            (lo, hi),
            "{name}.median_ci"
        );
        if x.len() >= 2 {
            close(&at("variance"), variance(&x, s.mean), num(case, "variance"));
            close(&at("stddev"), s.stddev, num(case, "stddev"));
        } else {
            // Documented: no spread from one sample.
            assert_eq!((s.stddev, variance(&x, s.mean)), (0.0, 0.0));
        }
        for (mode, want) in obj(case.get("outlier_modes").unwrap()) {
            let kept = Summary::with_outliers(&x, OutlierMode::parse(mode).unwrap()).unwrap();
            let at = |stat: &str| format!("{name}.{mode}.{stat}");
            assert_eq!(
                kept.set_aside,
                num(want, "set_aside") as usize,
                "{}",
                at("set_aside")
            );
            close(&at("mean"), kept.mean, num(want, "mean"));
            close(&at("median"), kept.median, num(want, "median"));
            close(&at("min"), kept.min, num(want, "min"));
            close(&at("max"), kept.max, num(want, "max"));
        }
        match case.get("mean_ci") {
            Some(ci) => {
                let ci = nums(ci);
                close(&at("mean_ci.lo"), s.mean_ci.lo, ci[0]);
                close(&at("mean_ci.hi"), s.mean_ci.hi, ci[1]);
            }
            // n = 1 or no spread: the interval is the point (documented).
            None => assert_eq!((s.mean_ci.lo, s.mean_ci.hi), (s.mean, s.mean), "{name}"),
        }
    }
}

#[test]
fn student_t_matches_scipy() {
    let d = data();
    let t = d.get("t").unwrap();
    for q in arr(t.get("quantiles").unwrap()) {
        let (p, df) = (num(q, "p"), num(q, "df"));
        close(
            &format!("t_quantile({p}, {df})"),
            t_quantile(p, df),
            num(q, "t"),
        );
    }
    for c in arr(t.get("cdf").unwrap()) {
        let (x, df) = (num(c, "t"), num(c, "df"));
        close(&format!("t_cdf({x}, {df})"), t_cdf(x, df), num(c, "cdf"));
    }
}

#[test]
fn mann_whitney_matches_scipy_auto() {
    let d = data();
    for (name, case) in obj(d.get("mann_whitney").unwrap()) {
        let (x, y) = (nums(case.get("x").unwrap()), nums(case.get("y").unwrap()));
        let r = mann_whitney(&x, &y).unwrap();
        close(&format!("{name}.u"), r.u, num(case, "u"));
        close(&format!("{name}.p"), r.p, num(case, "p"));
    }
}

#[test]
fn ratio_t_test_matches_scipy_ttest_1samp() {
    let d = data();
    for (name, case) in obj(d.get("paired").unwrap()) {
        let r = ratio_t_test(&nums(case.get("ratios").unwrap()), 0.95).unwrap();
        close(&format!("{name}.t"), r.t, num(case, "t"));
        close(&format!("{name}.p"), r.p, num(case, "p"));
        close(&format!("{name}.change"), r.change, num(case, "change"));
        let ci = nums(case.get("change_ci").unwrap());
        close(&format!("{name}.ci.lo"), r.ci[0], ci[0]);
        close(&format!("{name}.ci.hi"), r.ci[1], ci[1]);
    }
}

#[test]
fn sign_test_matches_scipy_binomtest() {
    let d = data();
    let cases = arr(d.get("sign_test").unwrap());
    assert!(cases.len() >= 8);
    for case in cases {
        let (above, below) = (num(case, "above") as usize, num(case, "below") as usize);
        close(
            &format!("sign_test({above}, {below})"),
            sign_test(above, below),
            num(case, "p"),
        );
    }
}

#[test]
fn benjamini_hochberg_matches_scipy() {
    let d = data();
    for (name, case) in obj(d.get("benjamini_hochberg").unwrap()) {
        let got = benjamini_hochberg(&nums(case.get("p").unwrap()));
        for (i, (g, w)) in got
            .iter()
            .zip(nums(case.get("adjusted").unwrap()))
            .enumerate()
        {
            close(&format!("{name}[{i}]"), *g, w);
        }
    }
}

#[test]
fn complexity_fits_match_numpy_lstsq() {
    let d = data();
    for (name, case) in obj(d.get("complexity").unwrap()) {
        let n = nums(case.get("n").unwrap());
        let t = nums(case.get("times").unwrap());
        for (shape, want) in obj(case.get("fits").unwrap()) {
            let c = Complexity::parse(shape).unwrap();
            let f = fit(&n, &t, c).unwrap();
            close(
                &format!("{name}.{shape}.coefficient"),
                f.coefficient,
                num(want, "coefficient"),
            );
            close(&format!("{name}.{shape}.rms"), f.rms, num(want, "rms"));
        }
        let best = fit(&n, &t, Complexity::Auto).unwrap().complexity;
        let want = case.get("best").and_then(Json::as_str).unwrap();
        assert_eq!(best.name(), want, "{name}: best shape");
    }
}

#[test]
fn densities_match_scipy_gaussian_kde() {
    let d = data();
    let cases = obj(d.get("density").unwrap());
    assert!(cases.len() >= 6, "every data set with a spread has a case");
    for (name, case) in cases {
        let mut x = nums(
            d.get("summaries")
                .unwrap()
                .get(name)
                .unwrap()
                .get("x")
                .unwrap(),
        );
        x.sort_by(f64::total_cmp);
        let h = bandwidth(&x);
        close(&format!("{name}.bandwidth"), h, num(case, "bandwidth"));
        let at = nums(case.get("at").unwrap());
        for (i, (got, want)) in density(&x, h, &at)
            .into_iter()
            .zip(nums(case.get("density").unwrap()))
            .enumerate()
        {
            close(&format!("{name}.density[{i}]"), got, want);
        }
    }
}
