import PickerProtocol

/// Fuzz target "decodermsg": the decoder worker's protocol (`DecodeMessages`) — a job as the
/// worker reads it from the daemon, a result as the daemon reads it from a (possibly compromised)
/// worker. The first byte picks which; the rest is the message.
///
/// Besides not crashing: whatever parses encodes back to bytes that parse to the same value; a job
/// the worker answers without a photo descriptor is an error, never pixels.
public enum DecoderMessagesFuzzEntry {
    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        guard let which = bytes.first else { return findings }
        let message = Array(bytes.dropFirst())
        if which & 1 == 0 {
            guard let job = try? DecodeMessages.decodeJob(message) else { return findings }
            let again = try? DecodeMessages.decodeJob(DecodeMessages.encode(job))
            findings.expect(again == job, "a job does not survive its own encoding: \(job)")
            let reply = DecoderWorker.answer(message, photo: nil)
            if case .pixels = reply.result { findings.expect(false, "pixels for a job without a photo") }
            findings.expect(reply.memfd == nil, "a memfd for a job without a photo")
        } else {
            guard let result = try? DecodeMessages.decodeResult(message) else { return findings }
            let again = try? DecodeMessages.decodeResult(DecodeMessages.encode(result))
            findings.expect(again == result, "a result does not survive its own encoding: \(result)")
        }
        return findings
    }
}
