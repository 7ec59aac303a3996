import Foundation

/// A long album for the paging tests: `count` copies of one small JPEG, `p00001.jpg`…, in `folder`.
/// `distinct`: each copy carries its number after the end of the image, so no two files are the same.
enum PickBigAlbum {
    static func make(_ count: Int, in folder: URL, distinct: Bool = false) async throws -> CommandResult {
        let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/pillow_orientation_rectangle.jpg")
        return try await runProcess(TestEnvironment.python, ["-c", """
            import os, sys
            src, folder, count, distinct = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
            os.makedirs(folder)
            data = open(src, 'rb').read()
            for i in range(1, count + 1):
                with open(os.path.join(folder, 'p%05d.jpg' % i), 'wb') as f: f.write(data + (b'%d' % i if distinct else b''))
            """, photo.path, folder.path, "\(count)", distinct ? "1" : "0"])
    }
}
