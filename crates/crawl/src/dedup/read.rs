//! The reading side of `dedup`: WARC files in order, `response` records in batches, on a
//! thread of its own so that decompression overlaps fingerprinting. Reading may start at a
//! [`Position`] (a resumed `--state` run): later files only, the first one from a record's
//! offset (its gzip member's, or an uncompressed record's).

use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use silhouette_warc::{Error, Fields, RecordType, WarcReader};

/// Records per batch handed over (batches only save channel round trips).
const BATCH_RECORDS: usize = 32;
/// Block bytes per batch: with at most two batches queued, memory stays bounded whatever the
/// input size.
const BATCH_BYTES: usize = 4 << 20;

/// One `response` record, read.
#[derive(Debug)]
pub struct Candidate {
    /// Index of its file in the input list.
    pub file: usize,
    /// Offset of the record (or its gzip member) in the file.
    pub offset: u64,
    /// The header fields.
    pub fields: Fields,
    /// The block.
    pub block: Vec<u8>,
}

/// Where reading can start again: a record's offset in an input file, from which reading
/// gives this record first and then the same items as reading the file from its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Index of the file in the input list.
    pub file: usize,
    /// Offset of the record (of its gzip member) in the file.
    pub offset: u64,
}

/// An item, and the position to read it again from, when it has one (not every record is a
/// place to start: only the first record of a file gzipped as one member is).
#[derive(Debug)]
pub struct Positioned {
    /// The item.
    pub item: Item,
    /// Where reading can start again to read it first.
    pub entry: Option<Position>,
}

/// What the reader found, in input order.
#[derive(Debug)]
pub enum Item {
    /// A response record.
    Response(Candidate),
    /// A record or file that could not be read.
    Error {
        /// Index of the file in the input list.
        file: usize,
        /// What is wrong (with the record's offset).
        message: String,
    },
    /// A record of another type (or a response too large to read): not judged.
    Skipped,
    /// The warcinfo record of a file a silhouette crawl wrote with `warc-records = "kept"`:
    /// it holds the pages that crawl kept, not the duplicates it learned from.
    KeptOnly {
        /// Index of the file in the input list.
        file: usize,
    },
}

/// Whether a warcinfo block says a silhouette crawl wrote only the pages it kept.
fn kept_only(block: &[u8]) -> bool {
    let text = String::from_utf8_lossy(block);
    let field = |name: &str| {
        text.lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_owned())
    };
    field("software").is_some_and(|s| s.starts_with("silhouette/"))
        && field("warc-records").as_deref() == Some("kept")
}

/// Starts reading `files` at `from`; batches arrive on the receiver, in order.
pub fn start(
    files: Vec<PathBuf>,
    max_block: u64,
    from: Position,
) -> (Receiver<Vec<Positioned>>, JoinHandle<()>) {
    let (tx, rx) = sync_channel(2);
    let handle = std::thread::spawn(move || {
        let mut batch = Batch::default();
        for (index, path) in files.iter().enumerate().skip(from.file) {
            let offset = if index == from.file { from.offset } else { 0 };
            if read_file(index, path, offset, max_block, &mut batch, &tx).is_err() {
                return; // the receiver is gone
            }
        }
        let _ = tx.send(batch.items);
    });
    (rx, handle)
}

#[derive(Default)]
struct Batch {
    items: Vec<Positioned>,
    bytes: usize,
}

impl Batch {
    fn push(
        &mut self,
        item: Item,
        entry: Option<Position>,
        tx: &SyncSender<Vec<Positioned>>,
    ) -> Result<(), ()> {
        if let Item::Response(c) = &item {
            self.bytes += c.block.len();
        }
        self.items.push(Positioned { item, entry });
        if self.items.len() >= BATCH_RECORDS || self.bytes >= BATCH_BYTES {
            self.bytes = 0;
            tx.send(std::mem::take(&mut self.items)).map_err(drop)?;
        }
        Ok(())
    }
}

fn read_file(
    index: usize,
    path: &PathBuf,
    offset: u64,
    max_block: u64,
    batch: &mut Batch,
    tx: &SyncSender<Vec<Positioned>>,
) -> Result<(), ()> {
    let error = |message: String| Item::Error {
        file: index,
        message,
    };
    let opened = File::open(path).and_then(|mut f| {
        f.seek(SeekFrom::Start(offset))?;
        Ok(f)
    });
    let file = match opened {
        Ok(f) => f,
        Err(e) => return batch.push(error(format!("cannot open: {e}")), None, tx),
    };
    let mut reader = WarcReader::starting_at(file, offset);
    while let Some(next) = reader.next_record() {
        let entry = match &next {
            Ok(rec) if rec.is_entry_point() => Some(Position {
                file: index,
                offset: rec.header().offset,
            }),
            _ => None,
        };
        let item = match next {
            Err(e) => error(e.to_string()),
            Ok(mut rec) if rec.header().record_type() == RecordType::Warcinfo => {
                match rec.read_block(max_block) {
                    Ok(block) if kept_only(&block) => Item::KeptOnly { file: index },
                    _ => Item::Skipped,
                }
            }
            Ok(rec) if rec.header().record_type() != RecordType::Response => Item::Skipped,
            Ok(mut rec) => match rec.read_block(max_block) {
                Ok(block) => Item::Response(Candidate {
                    file: index,
                    offset: rec.header().offset,
                    fields: rec.header().fields.clone(),
                    block,
                }),
                Err(e @ Error::BlockTooLarge { .. }) => error(format!("{e}: not judged")),
                Err(e) => error(e.to_string()),
            },
        };
        batch.push(item, entry, tx)?;
    }
    Ok(())
}
