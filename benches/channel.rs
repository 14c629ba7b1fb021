//! The channel between cargo nbench and a bench binary: what one message costs to encode,
//! decode, and carry over loopback.

use nbench::__private::engine::Settings;
use nbench::__private::protocol::{Command, Event, read_message, write_message};
use nbench::__private::result::BenchResult;
use nbench::{Registry, black_box};
use std::io::{BufReader, Cursor};
use std::net::{TcpListener, TcpStream};

fn result_event(samples: usize) -> Event {
    let per_iter: Vec<f64> = (0..samples)
        .map(|i| 100.0 + (i % 17) as f64 * 0.37)
        .collect();
    Event::Result(Box::new(BenchResult {
        id: "group/name/1000".into(),
        metric: Default::default(),
        summary: nbench::__private::stats::Summary::new(&per_iter).unwrap(),
        per_iter,
        iters: 4096,
        cold: 1234.5,
        overhead: 0.31,
        near_floor: false,
        stop: nbench::__private::engine::Stop::Precise,
        outlier_mode: nbench::__private::stats::OutlierMode::None,
        throughput: None,
        counters: Vec::new(),
        versus: None,
        is_baseline: false,
        repeat_medians: Vec::new(),
        cut_short: None,
    }))
}

fn encode<M: nbench::__private::protocol::Message>(m: &M) -> Vec<u8> {
    let mut buf = Vec::new();
    write_message(&mut buf, m).unwrap();
    buf
}

fn benches(r: &mut Registry) {
    let run = Command::Run {
        id: "group/name/1000".into(),
        settings: Settings::default(),
    };
    r.bench("channel/encode/run", move |b| {
        b.iter(|| encode(black_box(&run)))
    });
    r.bench("channel/decode/run", |b| {
        let line = encode(&Command::Run {
            id: "group/name/1000".into(),
            settings: Settings::default(),
        });
        b.iter(|| read_message::<Command>(&mut Cursor::new(black_box(&line))).unwrap())
    });
    r.group("channel/decode/result")
        .args([100usize, 10_000])
        .bench("samples", |b, &n| {
            let line = encode(&result_event(n));
            b.iter(|| read_message::<Event>(&mut Cursor::new(black_box(&line))).unwrap())
        });
    // One command out and one small event back over loopback TCP, as in a real session.
    r.bench("channel/round_trip/loopback", |b| {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let echo = std::thread::spawn(move || {
            let stream = TcpStream::connect(addr).unwrap();
            stream.set_nodelay(true).unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut writer = stream;
            let reply = Event::Error {
                message: "pong".into(),
            };
            while let Ok(Some(Command::List)) = read_message::<Command>(&mut reader) {
                write_message(&mut writer, &reply).unwrap();
            }
        });
        let (stream, _) = listener.accept().unwrap();
        stream.set_nodelay(true).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        b.iter(|| {
            write_message(&mut writer, &Command::List).unwrap();
            read_message::<Event>(&mut reader).unwrap()
        });
        write_message(&mut writer, &Command::Quit).unwrap();
        drop(writer);
        echo.join().unwrap();
    });
}

nbench::main!(benches);
