//! `replay` on an export (`export --redis`): what a shared crawl's records carry for it (when
//! each page was judged, its body hash, its structure profile), the crawl's settings beside
//! the export (`OUT.params.json`), and the export read back into a fresh state, in the order
//! the pages were judged, for `replay` to judge again exactly as it judges a local state.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Context, Result};
use data_encoding::BASE64;
use serde_json::Value;
use silhouette_frontier::{ContentBits, PageContent, PageRecord, Store, host_port};

/// `record`'s JSON line (`output::json`) with the fields replay needs added: `order`, the
/// page's place in a shared crawl's canonical order (the order it was judged in, unless
/// `out_of_order`).
pub fn with_replay_fields(mut line: String, page: &PageRecord, order: Option<u64>) -> String {
    if !line.ends_with('}') {
        return line;
    }
    line.pop();
    if let Some(seq) = order {
        let _ = write!(line, ",\"order\":{seq}");
    }
    if let Some(ms) = page.recorded_ms {
        let _ = write!(line, ",\"recorded_ms\":{ms}");
    }
    if let Some(h) = page.body_hash {
        let _ = write!(line, ",\"body_hash\":\"{h:032x}\"");
    }
    if let Some(p) = &page.profile {
        let _ = write!(line, ",\"profile\":\"{}\"", BASE64.encode(p));
    }
    line.push('}');
    line
}

/// Where the settings of an export are: `OUT.params.json` beside `OUT`.
pub fn params_path(export: &Path) -> PathBuf {
    let mut name = export.as_os_str().to_owned();
    name.push(".params.json");
    PathBuf::from(name)
}

/// Writes the crawl's settings beside the export.
pub fn write_params(export: &Path, params: &BTreeMap<String, String>) -> Result<()> {
    let path = params_path(export);
    let text = serde_json::to_string_pretty(params).context("the crawl's settings")?;
    std::fs::write(&path, text + "\n").with_context(|| format!("cannot write {}", path.display()))
}

fn hex_u128(v: &Value) -> Option<u128> {
    u128::from_str_radix(v.as_str()?, 16).ok()
}

/// A crawl that `replay` and `report` read: a state directory, or an export (`export
/// --redis`) read into a temporary state of its own.
#[derive(Debug)]
pub struct Opened {
    /// The state (or the export's temporary one).
    pub store: Store,
    /// The temporary state of an export (removed when dropped).
    imported: Option<tempfile::TempDir>,
}

impl Opened {
    /// Opens `path`: an export if it is a file, else a state directory.
    pub fn open(path: &Path) -> Result<Self> {
        if path.is_file() {
            let dir = tempfile::tempdir().context("cannot make a temporary directory")?;
            let store = import(path, dir.path())?;
            return Ok(Self {
                store,
                imported: Some(dir),
            });
        }
        Ok(Self {
            store: Store::open_existing(path)?,
            imported: None,
        })
    }

    /// Whether it was an export.
    pub const fn is_export(&self) -> bool {
        self.imported.is_some()
    }
}

/// Reads `export` (and its settings) into a new state in `dir`: the records in the order
/// they were judged, with ids of this state.
///
/// # Errors
/// The export or its settings cannot be read, a line is not a record, the state cannot be
/// written.
pub fn import(export: &Path, dir: &Path) -> Result<Store> {
    let params_file = params_path(export);
    let params: BTreeMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(&params_file).with_context(|| {
            format!(
                "cannot read {} (the crawl's settings, written by export beside the records)",
                params_file.display()
            )
        })?)
        .with_context(|| format!("{}: not the settings of a crawl", params_file.display()))?;
    let text = std::fs::read_to_string(export)
        .with_context(|| format!("cannot read {}", export.display()))?;
    let mut records = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let r: Value = serde_json::from_str(line)
            .with_context(|| format!("{} line {}: not a record", export.display(), n + 1))?;
        let url = r.get("url").and_then(Value::as_str).map(str::to_owned);
        let url = url.with_context(|| format!("{} line {}: no url", export.display(), n + 1))?;
        records.push((url, r));
    }
    // The canonical order (a page judged out of it at its place in it; an export of an
    // older crawl, without one: when each page was judged).
    records.sort_by_key(|(_, r)| {
        let order = r.get("order").and_then(Value::as_u64).unwrap_or(u64::MAX);
        (
            order,
            r.get("recorded_ms").and_then(Value::as_u64).unwrap_or(0),
        )
    });

    let list: Vec<(&str, String)> = params
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    let (mut store, _) = Store::open(dir, &list).context("cannot make a state of the export")?;
    let mut ids: HashMap<&str, u64> = HashMap::new();
    for (url, r) in &records {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| host_port(&u))
            .unwrap_or_default();
        let depth = r.get("depth").and_then(Value::as_u64).unwrap_or(0);
        let id = store.add_url(url, &host, u32::try_from(depth).unwrap_or(u32::MAX), None)?;
        let id = id.with_context(|| format!("{}: {url} recorded twice", export.display()))?;
        ids.insert(url, id);
    }
    let id_of = |r: &Value, key: &str| {
        r.get(key)
            .and_then(Value::as_str)
            .and_then(|u| ids.get(u).copied())
    };
    let text_of = |r: &Value, key: &str| r.get(key).and_then(Value::as_str).map(str::to_owned);
    let num = |r: &Value, key: &str| r.get(key).and_then(Value::as_u64);
    for (url, r) in &records {
        let page = PageRecord {
            out_of_order: r.get("out_of_order").and_then(Value::as_bool) == Some(true),
            id: ids[url.as_str()],
            final_url: text_of(r, "final_url"),
            status: num(r, "status").and_then(|s| u16::try_from(s).ok()),
            content_type: text_of(r, "content_type"),
            bytes: num(r, "bytes"),
            fetch_ms: num(r, "fetch_ms"),
            fingerprint: r
                .get("fingerprint")
                .and_then(hex_u128)
                .and_then(|f| u64::try_from(f).ok()),
            elements: num(r, "elements"),
            truncated: text_of(r, "truncated"),
            decision: text_of(r, "decision")
                .and_then(|d| d.parse().ok())
                .unwrap_or_default(),
            duplicate_of: id_of(r, "duplicate_of"),
            distance: num(r, "distance").and_then(|d| u32::try_from(d).ok()),
            error: text_of(r, "error"),
            body_hash: r.get("body_hash").and_then(hex_u128),
            profile: r
                .get("profile")
                .and_then(Value::as_str)
                .and_then(|p| BASE64.decode(p.as_bytes()).ok()),
            emitted: true,
            cluster: id_of(r, "cluster"),
            recorded_ms: num(r, "recorded_ms"),
            content: PageContent {
                fingerprint: r
                    .get("content_fingerprint")
                    .and_then(Value::as_str)
                    .and_then(|h| {
                        let bytes = (0..h.len())
                            .step_by(2)
                            .map(|i| u8::from_str_radix(h.get(i..i + 2)?, 16).ok())
                            .collect::<Option<Vec<u8>>>()?;
                        ContentBits::from_bytes(&bytes)
                    }),
                signature: r.get("signature").and_then(hex_u128),
            },
            content_duplicate_of: id_of(r, "content_duplicate_of"),
            content_distance: num(r, "content_distance").and_then(|d| u32::try_from(d).ok()),
        };
        store.record(&page)?;
    }
    store.commit()?;
    Ok(store)
}
