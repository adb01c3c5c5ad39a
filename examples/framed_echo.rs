//! A framed echo server and client over loopback TCP with tokio: each
//! message is one length-delimited frame (a bijou64 length, then the
//! payload), through `tokio_util`'s `Framed` and bijou-io's `FrameCodec`.
//! The limit is checked on both ends: the client's codec refuses to send
//! a frame the server would refuse to read.

use std::io;

use bijou_io::{FrameCodec, FrameError};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// The largest payload either end accepts.
const MAX_FRAME_LEN: usize = 64 * 1024;

/// Echoes every frame of one connection back, until the client closes it.
async fn serve(listener: TcpListener) -> io::Result<()> {
    let (stream, _) = listener.accept().await?;
    let mut frames = Framed::new(stream, FrameCodec::with_max_frame_len(MAX_FRAME_LEN));
    while let Some(frame) = frames.next().await {
        frames.send(frame?.freeze()).await?;
    }
    Ok(())
}

async fn run() -> io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let server = tokio::spawn(serve(listener));

    let stream = TcpStream::connect(address).await?;
    let mut frames = Framed::new(stream, FrameCodec::with_max_frame_len(MAX_FRAME_LEN));
    let messages = [
        Bytes::from_static(b"hello"),
        Bytes::new(),
        Bytes::from(vec![0x5A; 40_000]),
    ];
    for message in &messages {
        frames.send(message.clone()).await?;
        let echoed = frames.next().await.expect("the server echoes")?;
        assert_eq!(echoed, message, "the echo differs");
    }

    // Over the limit: refused before anything is written.
    let error = frames
        .send(Bytes::from(vec![0; MAX_FRAME_LEN + 1]))
        .await
        .unwrap_err();
    let refused = error.get_ref().and_then(|e| e.downcast_ref::<FrameError>());
    assert!(
        matches!(refused, Some(FrameError::PayloadTooLarge { .. })),
        "{error}"
    );

    drop(frames); // closes the connection: the server's loop ends
    server.await.expect("the server task panicked")?;
    println!(
        "framed_echo: {} frames echoed over {address}",
        messages.len()
    );
    Ok(())
}

fn main() -> io::Result<()> {
    tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?
        .block_on(run())
}
