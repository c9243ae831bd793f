//! Reading a request with its signature kept: the replay check (`replays`) needs the
//! signature frame, which `jupyter-zmq-client`'s `read` verifies and then drops. The frames
//! are taken from the socket here, verified by the crate's own check
//! (`RawMessage::from_multipart`), and decoded into a message as the crate decodes one.

use jupyter_protocol::{Header, JupyterMessage, JupyterMessageContent};
use jupyter_zmq_client::{Connection, RawMessage, RuntimeError};
use zeromq::SocketRecv;

/// ZeroMQ's delimiter between the routing ids and the signed frames.
const DELIMITER: &[u8] = b"<IDS|MSG>";

/// A verified request and the signature it came with (empty on an unsigned connection).
pub struct Signed {
    /// The request.
    pub message: JupyterMessage,
    /// The signature frame as sent: lower-case hex of the HMAC.
    pub signature: Vec<u8>,
}

/// Reads the next message from `connection`, verifies its signature and decodes it.
pub async fn read<S: SocketRecv>(connection: &mut Connection<S>) -> Result<Signed, RuntimeError> {
    let frames = connection.socket.recv().await?;
    let signature = frames
        .iter()
        .position(|frame| &frame[..] == DELIMITER)
        .and_then(|at| frames.get(at + 1))
        .map(|frame| frame.to_vec())
        .unwrap_or_default();
    let raw = RawMessage::from_multipart(frames, &connection.mac)?;
    Ok(Signed {
        message: decode(raw)?,
        signature,
    })
}

/// The message a verified multipart holds (header, parent header, metadata, content, then
/// buffers); a parent header that is `{}` is none.
fn decode(raw: RawMessage) -> Result<JupyterMessage, RuntimeError> {
    let [header, parent, metadata, content, buffers @ ..] = raw.jparts.as_slice() else {
        return Err(RuntimeError::InsufficientMessageParts(raw.jparts.len()));
    };
    let header: Header = serde_json::from_slice(header)?;
    let content = serde_json::from_slice(content)?;
    let content = JupyterMessageContent::from_type_and_content(&header.msg_type, content).map_err(
        |source| RuntimeError::ParseError {
            msg_type: header.msg_type.clone(),
            source,
        },
    )?;
    Ok(JupyterMessage {
        zmq_identities: raw.zmq_identities.clone(),
        parent_header: serde_json::from_slice(parent).ok(),
        metadata: serde_json::from_slice(metadata)?,
        header,
        content,
        buffers: buffers.to_vec(),
        channel: None,
    })
}
