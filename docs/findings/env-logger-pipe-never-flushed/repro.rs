// 10 records through env_logger to Target::Pipe(BufWriter<File>), then
// log::logger().flush() ("Flushes any buffered records") and a normal return.
use std::fs::File;
use std::io::BufWriter;

fn main() {
    let file = BufWriter::new(File::create("app.log").expect("create app.log"));
    env_logger::Builder::new()
        .filter_level(log::LevelFilter::Debug)
        .format_timestamp(None)
        .target(env_logger::Target::Pipe(Box::new(file)))
        .init();
    for i in 0..10 {
        log::info!("record {}", i);
    }
    log::logger().flush();
    println!("all 10 records logged, log::logger().flush() called, main returns");
}
