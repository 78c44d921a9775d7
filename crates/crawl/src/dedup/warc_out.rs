//! `dedup --warc-out DIR`: the kept records, a revisit for each exact duplicate, and a
//! warcinfo naming the inputs, in one new WARC file.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::{Context, Result, inconsistent};
use silhouette_warc::{
    Fields, WarcRecord, WarcWriter, revisit, sha1_digest, strip_angle_brackets, warc_date, warcinfo,
};

/// What a revisit of a kept page needs to say.
#[derive(Debug, Clone)]
pub struct KeptCopy {
    pub url: String,
    pub date: String,
}

/// The output WARC file.
#[derive(Debug)]
pub struct WarcOut {
    writer: WarcWriter<BufWriter<File>>,
    path: PathBuf,
    warcinfo_id: String,
}

impl WarcOut {
    /// Creates `DIR/silhouette-dedup-TIMESTAMP.warc.gz` and writes its warcinfo.
    pub fn create(dir: &Path, inputs: &[PathBuf], params: &[(&str, String)]) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the WARC directory {}", dir.display()))?;
        let date = warc_date(SystemTime::now());
        let stamp = silhouette_warc::cdxj_timestamp(&date);
        let name = format!("silhouette-dedup-{stamp}.warc.gz");
        let path = dir.join(&name);
        let file = File::create_new(&path)
            .with_context(|| format!("cannot create the WARC file {}", path.display()))?;
        let mut info: Vec<(&str, String)> = vec![
            (
                "software",
                format!("silhouette/{}", env!("CARGO_PKG_VERSION")),
            ),
            ("format", "WARC File Format 1.1".to_owned()),
            (
                "description",
                "kept pages of `silhouette dedup`; revisits for exact duplicates".to_owned(),
            ),
        ];
        info.extend(inputs.iter().map(|p| ("input", p.display().to_string())));
        info.extend(params.iter().cloned());
        let pairs: Vec<(&str, &str)> = info.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let record = warcinfo(&date, &name, &pairs);
        let warcinfo_id = record.id().unwrap_or_default().to_owned();
        let mut writer = WarcWriter::new(BufWriter::new(file));
        writer
            .write(&record)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Self {
            writer,
            path,
            warcinfo_id,
        })
    }

    /// Reopens `DIR/NAME` of a resumed `dedup --state` run, cut back to the `end` bytes the
    /// state committed.
    pub fn reopen(dir: &Path, name: &str, end: u64, warcinfo_id: String) -> Result<Self> {
        let path = dir.join(name);
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open the WARC output {}", path.display()))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        if len < end {
            inconsistent!(
                "the WARC output {} is shorter than the state says ({len} < {end} bytes): it was changed outside the run",
                path.display()
            );
        }
        file.set_len(end)
            .with_context(|| format!("cannot repair {}", path.display()))?;
        Ok(Self {
            writer: WarcWriter::starting_at(BufWriter::new(file), end),
            path,
            warcinfo_id,
        })
    }

    /// The file name and its warcinfo record's id.
    pub fn identity(&self) -> (String, &str) {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (name, &self.warcinfo_id)
    }

    /// Flushes to the OS; returns the bytes written so far.
    pub fn flush(&mut self) -> Result<u64> {
        self.writer
            .flush()
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        Ok(self.writer.offset())
    }

    /// Copies a kept record (header fields as read, block as is) and says what a revisit
    /// of it must name.
    pub fn keep(&mut self, fields: &Fields, block: &[u8]) -> Result<KeptCopy> {
        let mut out = Fields::new();
        for (name, value) in fields.iter() {
            match name.to_ascii_lowercase().as_str() {
                "content-length" | "warc-warcinfo-id" => {}
                "warc-target-uri" => out.push(name, strip_angle_brackets(value)),
                _ => out.push(name, value),
            }
        }
        out.push("WARC-Warcinfo-ID", self.warcinfo_id.as_str());
        let copy = KeptCopy {
            url: strip_angle_brackets(fields.get("WARC-Target-URI").unwrap_or_default()).to_owned(),
            date: fields.get("WARC-Date").unwrap_or_default().to_owned(),
        };
        self.write(&WarcRecord {
            fields: out,
            block: block.to_vec(),
        })?;
        Ok(copy)
    }

    /// Writes an identical-payload-digest revisit of `of` for the record read with `fields`
    /// (`block`: its HTTP head and body from `body_offset`). The payload is byte-identical to
    /// the kept one's, so the record's own payload digest names it.
    pub fn revisit(
        &mut self,
        fields: &Fields,
        block: &[u8],
        body_offset: usize,
        of: &KeptCopy,
    ) -> Result<()> {
        let url = strip_angle_brackets(fields.get("WARC-Target-URI").unwrap_or_default());
        let date = fields.get("WARC-Date").unwrap_or_default();
        let at = body_offset.min(block.len());
        let digest = fields
            .get("WARC-Payload-Digest")
            .map_or_else(|| sha1_digest(&block[at..]), str::to_owned);
        let record = revisit(date, url, &block[..at], &digest, &of.url, &of.date)
            .with_field("WARC-Warcinfo-ID", self.warcinfo_id.as_str());
        self.write(&record)
    }

    fn write(&mut self, record: &WarcRecord) -> Result<()> {
        self.writer
            .write(record)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        Ok(())
    }

    /// Flushes the file; returns its path.
    pub fn finish(self) -> Result<PathBuf> {
        self.writer
            .into_inner()
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        Ok(self.path)
    }
}
