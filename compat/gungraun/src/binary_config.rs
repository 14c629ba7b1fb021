//! A binary benchmark's `BinaryBenchmarkConfig`: given to `main!`, a
//! group, a `#[binary_benchmark]` and a `#[bench]`, each over the one
//! before, and the command's own settings over them all. What it says of
//! the command's environment, folder and exit is honoured; the rest
//! (Valgrind's tools and arguments, the sandbox, …) is taken, as every
//! configuration is.

use crate::command::ExitWith;
use crate::config::{made, takes};
use crate::sandbox::Sandbox;
use std::ffi::OsString;
use std::path::PathBuf;

/// A binary benchmark's, group's or `main!`'s `config`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BinaryBenchmarkConfig {
    /// Variables the command gets, in the order set.
    pub(crate) envs: Vec<(OsString, OsString)>,
    /// Whether the command's environment is cleared (gungraun's default).
    pub(crate) env_clear: Option<bool>,
    /// Variables of the bench process's environment kept where it is cleared.
    pub(crate) pass_through: Vec<OsString>,
    /// The folder the command runs in.
    pub(crate) dir: Option<PathBuf>,
    /// How the command is expected to exit.
    pub(crate) exit_with: Option<ExitWith>,
    /// Whether `setup` runs beside the command.
    pub(crate) beside: bool,
    /// The folder the benchmark runs in, where it is not the package's.
    pub(crate) sandbox: Option<Sandbox>,
}

impl BinaryBenchmarkConfig {
    made!();
    takes!(
        default_tool, valgrind_args, tool, tool_override, output_format,
        callgrind_args, raw_callgrind_args, regression, regression_limits, entry_point,
        flamegraph, setup_parallelism;
    );

    /// A variable the command gets.
    pub fn env<K: Into<OsString>, V: Into<OsString>>(&mut self, key: K, value: V) -> &mut Self {
        self.envs.push((key.into(), value.into()));
        self
    }
    /// Variables the command gets.
    pub fn envs<K, V, T>(&mut self, envs: T) -> &mut Self
    where
        K: Into<OsString>,
        V: Into<OsString>,
        T: IntoIterator<Item = (K, V)>,
    {
        for (k, v) in envs {
            self.env(k, v);
        }
        self
    }
    /// A variable of the bench process's environment the command keeps.
    pub fn pass_through_env<K: Into<OsString>>(&mut self, key: K) -> &mut Self {
        self.pass_through.push(key.into());
        self
    }
    /// Variables of the bench process's environment the command keeps.
    pub fn pass_through_envs<K: Into<OsString>, T: IntoIterator<Item = K>>(
        &mut self,
        keys: T,
    ) -> &mut Self {
        self.pass_through.extend(keys.into_iter().map(Into::into));
        self
    }
    /// Whether the command's environment is cleared first (it is, unless
    /// this says `false`).
    pub fn env_clear(&mut self, clear: bool) -> &mut Self {
        self.env_clear = Some(clear);
        self
    }
    /// The folder the command runs in, where the command names none.
    pub fn current_dir<T: Into<PathBuf>>(&mut self, dir: T) -> &mut Self {
        self.dir = Some(dir.into());
        self
    }
    /// How the command is expected to exit, where the command says not.
    pub fn exit_with<T: Into<ExitWith>>(&mut self, exit_with: T) -> &mut Self {
        self.exit_with = Some(exit_with.into());
        self
    }
    /// Runs the benchmark (its `setup`, command and `teardown`) in a
    /// temporary folder of its own, where `sandbox` is enabled.
    pub fn sandbox<T: Into<Sandbox>>(&mut self, sandbox: T) -> &mut Self {
        self.sandbox = Some(sandbox.into());
        self
    }
    /// Whether `setup` runs beside the command, in a process of its own
    /// (the `Command`'s `setup_parallel`).
    pub fn setup_parallel(&mut self, beside: bool) -> &mut Self {
        self.beside |= beside;
        self
    }

    /// This configuration with `inner` (a group's within `main!`'s, a
    /// bench's within its benchmark's) over it: its variables after
    /// these, its settings where it gives them.
    pub(crate) fn with(&self, inner: &BinaryBenchmarkConfig) -> BinaryBenchmarkConfig {
        let mut envs = self.envs.clone();
        envs.extend(inner.envs.iter().cloned());
        let mut pass_through = self.pass_through.clone();
        pass_through.extend(inner.pass_through.iter().cloned());
        BinaryBenchmarkConfig {
            envs,
            env_clear: inner.env_clear.or(self.env_clear),
            pass_through,
            dir: inner.dir.clone().or_else(|| self.dir.clone()),
            exit_with: inner.exit_with.or(self.exit_with),
            beside: self.beside || inner.beside,
            sandbox: inner.sandbox.clone().or_else(|| self.sandbox.clone()),
        }
    }
}

crate::command::from_refs!(BinaryBenchmarkConfig);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inner_configuration_adds_its_variables_and_overrides_its_settings() {
        let mut main = BinaryBenchmarkConfig::default();
        main.env("MAIN", "1")
            .current_dir("/m")
            .exit_with(ExitWith::Failure)
            .sandbox(Sandbox::new(true));
        let mut bench = BinaryBenchmarkConfig::default();
        bench
            .envs([("BENCH", "4"), ("MAIN", "again")])
            .exit_with(ExitWith::Code(3))
            .env_clear(false);
        let both = main.with(&bench);
        let names: Vec<String> = (both.envs.iter())
            .map(|(k, v)| format!("{}={}", k.display(), v.display()))
            .collect();
        assert_eq!(names, ["MAIN=1", "BENCH=4", "MAIN=again"]);
        assert_eq!(both.exit_with, Some(ExitWith::Code(3)));
        assert_eq!(both.dir, Some(PathBuf::from("/m")));
        assert_eq!(both.env_clear, Some(false));
        assert_eq!(both.sandbox, Some(Sandbox::new(true)));
        assert_eq!(main.with(&BinaryBenchmarkConfig::default()), main);
    }
}
