//! `cargo nbench report`: the HTML report again, from the newest stored run.

use crate::config::Settings;
use crate::error::{Result, exit};
use crate::pipeline::publish::write_html;
use crate::store::Store;

/// Rebuilds the report and prints where it is.
pub fn run(settings: &Settings) -> Result<u8> {
    let store = Store::new(&settings.target_dir());
    let newest = store.newest_run()?;
    let path = write_html(&store, &newest, false)?;
    outln!("{}", path.display());
    Ok(exit::SUCCESS)
}
