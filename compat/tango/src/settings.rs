//! tango's measurement settings: accepted so that a suite's `tango_main!`
//! compiles, and not honoured (cargo nbench decides how long and how
//! often to measure).

/// tango's measurement settings.
#[derive(Clone, Copy, Debug)]
pub struct MeasurementSettings {
    pub filter_outliers: bool,
    pub samples_per_haystack: usize,
    pub min_iterations_per_sample: usize,
    pub max_iterations_per_sample: usize,
    pub sampler_type: SampleLengthKind,
    pub warmup_enabled: bool,
    pub cache_firewall: Option<usize>,
    pub yield_before_sample: bool,
    pub randomize_stack: Option<usize>,
}

/// How tango picks the iterations of a sample.
#[derive(Clone, Copy, Debug)]
pub enum SampleLengthKind {
    Flat,
    Linear,
    Random,
}

/// tango's defaults.
pub const DEFAULT_SETTINGS: MeasurementSettings = MeasurementSettings {
    filter_outliers: false,
    samples_per_haystack: 1,
    min_iterations_per_sample: 1,
    max_iterations_per_sample: 5000,
    sampler_type: SampleLengthKind::Random,
    warmup_enabled: true,
    cache_firewall: None,
    yield_before_sample: false,
    randomize_stack: None,
};

impl Default for MeasurementSettings {
    fn default() -> Self {
        DEFAULT_SETTINGS
    }
}
