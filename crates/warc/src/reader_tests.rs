//! Reading well-formed, sloppy and broken inputs: every record or error, in order.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use proptest::prelude::*;

use super::*;
use crate::writer::{WarcRecord, WarcWriter};

/// One line per record or error: `ok TYPE URI BLOCK` or `err MESSAGE`.
fn summarize(input: &[u8]) -> Vec<String> {
    let mut reader = WarcReader::new(input);
    let mut out = Vec::new();
    while let Some(next) = reader.next_record() {
        match next {
            Ok(mut rec) => {
                let kind = rec.header().record_type().to_string();
                let uri = rec.header().target_uri().unwrap_or("-").to_owned();
                match rec.read_block(u64::MAX) {
                    Ok(block) => out.push(format!(
                        "ok {kind} {uri} {}",
                        String::from_utf8_lossy(&block)
                    )),
                    Err(e) => out.push(format!("err {e}")),
                }
            }
            Err(e) => out.push(format!("err {e}")),
        }
        assert!(out.len() < 100, "the reader goes on forever: {out:?}");
    }
    out
}

fn check(input: &[u8], expected: &[&str]) {
    let got = summarize(input);
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    for (got, want) in got.iter().zip(expected) {
        assert!(
            got.starts_with(want),
            "{got:?} does not start with {want:?}\nall: {got:#?}"
        );
    }
}

fn plain(kind: &str, uri: &str, block: &str) -> Vec<u8> {
    plain_with_length(kind, uri, block, block.len())
}

fn plain_with_length(kind: &str, uri: &str, block: &str, length: usize) -> Vec<u8> {
    format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {length}\r\n\r\n{block}\r\n\r\n"
    )
    .into_bytes()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(bytes).expect("writes to a Vec");
    enc.finish().expect("writes to a Vec")
}

fn abc() -> [Vec<u8>; 3] {
    [
        plain("response", "http://a/1", "one"),
        plain("request", "http://a/2", "two"),
        plain("resource", "http://a/3", "three"),
    ]
}

const ABC: [&str; 3] = [
    "ok response http://a/1 one",
    "ok request http://a/2 two",
    "ok resource http://a/3 three",
];

#[test]
fn well_formed_in_every_compression() {
    let [a, b, c] = abc();
    check(&[a.clone(), b.clone(), c.clone()].concat(), &ABC);
    check(&[gz(&a), gz(&b), gz(&c)].concat(), &ABC);
    check(&gz(&[a, b, c].concat()), &ABC);
}

#[test]
fn sloppy_but_readable() {
    let lf = "WARC/1.0\nWARC-Type: response\nWARC-Target-URI: <http://a/lf>\nX-Unknown: 1\n  folded\nContent-Length: 2\n\nlf\n\n";
    let odd = "WARC/1.1\r\nWARC-Type: odd-type\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    let input = ["\r\n\r\n", lf, "\r\n\r\n\r\n", odd].concat();
    check(
        input.as_bytes(),
        &["ok response http://a/lf lf", "ok odd-type - "],
    );
    let mut reader = WarcReader::new(input.as_bytes());
    let rec = reader.next_record().expect("a record").expect("readable");
    assert_eq!(rec.header().fields.get("x-unknown"), Some("1 folded"));
    assert_eq!(rec.header().version, "1.0");
}

#[test]
fn offsets_of_records_and_members() {
    let [a, b, c] = abc();
    let plain_file = [a.clone(), b.clone(), c.clone()].concat();
    let members = [gz(&a), gz(&b), gz(&c)];
    let gz_file = members.concat();
    for (file, expected) in [
        (&plain_file, [0, a.len(), a.len() + b.len()]),
        (
            &gz_file,
            [0, members[0].len(), members[0].len() + members[1].len()],
        ),
    ] {
        let mut reader = WarcReader::new(file.as_slice());
        let mut offsets = Vec::new();
        while let Some(rec) = reader.next_record() {
            offsets.push(rec.expect("well-formed").header().offset as usize);
        }
        assert_eq!(offsets, expected);
    }
}

#[test]
fn broken_records_are_errors_and_the_rest_is_read() {
    let [a, b, c] = abc();
    let [ga, gb, gc] = [gz(&a), gz(&b), gz(&c)];
    // A gzip member cut short, in the middle and at the end.
    let cut = &gb[..gb.len() / 2];
    check(
        &[&ga[..], cut, &gc].concat(),
        &[ABC[0], "err offset", ABC[2]],
    );
    check(
        &[&ga[..], &gb, &gc[..gc.len() / 2]].concat(),
        &[ABC[0], ABC[1], "err offset"],
    );
    // Content-Length too long and too short, uncompressed and gzipped per record.
    let long = plain_with_length("response", "http://a/1", "one", 20);
    let short = plain_with_length("response", "http://a/1", "one", 1);
    check(
        &[&long[..], &b, &c].concat(),
        &["ok response http://a/1 one", "err offset", ABC[1], ABC[2]],
    );
    check(
        &[&short[..], &b, &c].concat(),
        &["ok response http://a/1 o", "err offset", ABC[1], ABC[2]],
    );
    check(
        &[gz(&long), gb.clone(), gc.clone()].concat(),
        &["err offset 0: record truncated", ABC[1], ABC[2]],
    );
    check(
        &[gz(&short), gb.clone(), gc.clone()].concat(),
        &["ok response http://a/1 o", "err offset", ABC[1], ABC[2]],
    );
    // No WARC-Type.
    let untyped = b"WARC/1.0\r\nContent-Length: 3\r\n\r\nxyz\r\n\r\n";
    check(
        &[&a[..], untyped, &c].concat(),
        &[ABC[0], "err offset", ABC[2]],
    );
    check(
        &[ga.clone(), gz(untyped), gc.clone()].concat(),
        &[ABC[0], "err offset", ABC[2]],
    );
    // Not WARC at all, nothing at all.
    check(
        b"<html>not a warc</html>\n",
        &["err offset 0: not a WARC record"],
    );
    check(&gz(b"just text\n"), &["err offset 0: not a WARC record"]);
    check(b"", &["err empty input"]);
    // A 2 GB claim is read as a stream, never allocated.
    let huge = plain_with_length("response", "http://a/huge", "tiny", 2_000_000_000);
    check(
        &[&huge[..], &b, &c].concat(),
        &["err offset 0: record truncated", ABC[1], ABC[2]],
    );
    check(
        &[gz(&huge), gb.clone(), gc.clone()].concat(),
        &["err offset 0: record truncated", ABC[1], ABC[2]],
    );
    // Junk between gzip members.
    check(
        &[&ga[..], b"junk", &gb].concat(),
        &[ABC[0], "err offset", ABC[1]],
    );
}

#[test]
fn huge_block_is_refused_before_reading() {
    let huge = plain_with_length("response", "http://a/huge", "tiny", 2_000_000_000);
    let mut reader = WarcReader::new(huge.as_slice());
    let mut rec = reader
        .next_record()
        .expect("a record")
        .expect("a sound header");
    let err = rec.read_block(1 << 20).expect_err("over the cap");
    assert!(
        matches!(
            err,
            Error::BlockTooLarge {
                length: 2_000_000_000,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn long_headers_are_refused() {
    let long = format!(
        "WARC/1.0\r\nX: {}\r\nContent-Length: 0\r\n\r\n",
        "x".repeat(100)
    );
    let limits = Limits {
        max_header: 64,
        ..Limits::default()
    };
    let mut reader = WarcReader::with_limits(long.as_bytes(), limits);
    let err = reader
        .next_record()
        .expect("an error")
        .expect_err("too long");
    assert!(
        matches!(err, Error::HeaderTooLong { limit: 64, .. }),
        "{err}"
    );
}

fn arb_record() -> impl Strategy<Value = WarcRecord> {
    let field = ("[A-Za-z][A-Za-z0-9-]{0,12}", "[ -~]{0,40}");
    (
        "[a-z]{1,10}",
        proptest::collection::vec(field, 0..6),
        proptest::collection::vec(any::<u8>(), 0..300),
    )
        .prop_map(|(kind, fields, block)| {
            let mut record = WarcRecord::default().with_field("WARC-Type", kind);
            for (name, value) in fields {
                if !name.eq_ignore_ascii_case("content-length")
                    && !name.eq_ignore_ascii_case("warc-type")
                {
                    record = record.with_field(name, value.trim());
                }
            }
            record.block = block;
            record
        })
}

proptest! {
    #[test]
    fn write_then_read_round_trips(records in proptest::collection::vec(arb_record(), 1..6)) {
        let mut writer = WarcWriter::new(Vec::new());
        let written: Vec<_> = records.iter().map(|r| writer.write(r).expect("writes to a Vec")).collect();
        let file = writer.into_inner().expect("writes to a Vec");
        let mut reader = WarcReader::new(file.as_slice());
        for (record, at) in records.iter().zip(&written) {
            let mut rec = reader.next_record().expect("a record").expect("well-formed");
            prop_assert_eq!(rec.header().offset, at.offset);
            let fields: Vec<_> = rec.header().fields.iter().map(|(n, v)| (n.to_owned(), v.to_owned())).collect();
            let want: Vec<_> = record.fields.iter().map(|(n, v)| (n.to_owned(), v.to_owned())).collect();
            prop_assert_eq!(&fields[..want.len()], &want[..]);
            let block = rec.read_block(1 << 20).expect("whole");
            prop_assert_eq!(&block, &record.block);
            let digest = crate::sha1_digest(&block);
            prop_assert_eq!(rec.header().fields.get("WARC-Block-Digest"), Some(digest.as_str()));
        }
        prop_assert!(reader.next_record().is_none());
    }
}

/// Reading from each entry point a first pass reports gives the same records, with the same
/// offsets, as the first pass from there on.
#[test]
fn resumes_at_entry_points() {
    let records: Vec<Vec<u8>> = abc().into_iter().collect();
    let per_member: Vec<u8> = records.iter().flat_map(|r| gz(r)).collect();
    let plain_file = records.concat();
    let whole = gz(&plain_file);
    for (name, file, entries) in [
        ("gzip per record", &per_member, 3),
        ("uncompressed", &plain_file, 3),
        ("gzip as one member", &whole, 1),
    ] {
        let read = |reader: &mut WarcReader<&[u8]>| {
            let mut out = Vec::new();
            while let Some(rec) = reader.next_record() {
                let rec = rec.expect("valid");
                let h = rec.header();
                out.push((
                    h.offset,
                    h.target_uri().map(str::to_owned),
                    rec.is_entry_point(),
                ));
            }
            out
        };
        let all = read(&mut WarcReader::new(file.as_slice()));
        assert_eq!(all.len(), 3, "{name}");
        let starts: Vec<usize> = all
            .iter()
            .enumerate()
            .filter(|(_, r)| r.2)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(starts.len(), entries, "{name}: {all:?}");
        for i in starts {
            let at = all[i].0;
            let mut again = WarcReader::starting_at(&file[at as usize..], at);
            assert_eq!(
                read(&mut again),
                all[i..],
                "{name}: from record {i} at {at}"
            );
        }
    }
}
