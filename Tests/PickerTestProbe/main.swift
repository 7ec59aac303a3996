// A child process for tests that must run alone or as another user:
//   picker-test-probe scan ROOT         the library scanner's indexed paths, one per line
//   picker-test-probe regression FILE   one fuzz regression input through the decoders; a JSON report
// Tests spawn it so that process-wide measurements (VmPeak) and credentials belong to one input only.
import Foundation
import PickerEngine
import PickerProtocol

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("picker-test-probe: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first, arguments.count == 2, let operand = arguments.last else {
    fail("usage: picker-test-probe scan ROOT | regression FILE")
}
switch command {
case "scan":
    do throws(PickerError) {
        let snapshot = try LibraryScanner(root: operand).scan()
        for path in snapshot.allPhotos.map(\.relativePath).sorted() { print(path) }
    } catch {
        fail("scan \(operand): \(error.message)")
    }
case "regression":
    guard let data = FileManager.default.contents(atPath: operand) else { fail("cannot read \(operand)") }
    let report = RegressionReplay.run([UInt8](data), name: (operand as NSString).lastPathComponent)
    guard let json = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]) else {
        fail("cannot encode the report")
    }
    print(String(decoding: json, as: UTF8.self))
default:
    fail("unknown command \(command)")
}
