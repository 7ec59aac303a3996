/// EXIF date-time strings ("YYYY:MM:DD HH:MM:SS", local time without a zone).
public enum ExifDateTime {
    /// The string trimmed of padding if it is a well-formed, plausible EXIF date-time, else nil.
    /// Accepts ':' or '-' between date fields and ' ' or 'T' before the time; rejects the
    /// "0000:00:00 00:00:00" placeholder that cameras write when the clock is unset.
    public static func normalized(_ text: String) -> String? {
        var trimmed = Substring(text)
        while let last = trimmed.last, last == " " || last == "\0" { trimmed = trimmed.dropLast() }
        let candidate = String(trimmed)
        return fields(candidate) == nil ? nil : candidate
    }

    /// Seconds since 1970-01-01 00:00:00, reading the local time as if it were UTC
    /// (EXIF 2.2 dates carry no zone; using one clock for all photos keeps the sort stable).
    public static func secondsSinceEpoch(_ text: String) -> Int64? {
        guard let f = fields(text) else { return nil }
        let days = daysFromCivil(year: f.year, month: f.month, day: f.day)
        return days * 86_400 + Int64(f.hour * 3600 + f.minute * 60 + f.second)
    }

    private struct Fields { var year, month, day, hour, minute, second: Int }

    private static func fields(_ text: String) -> Fields? {
        let b = Array(text.utf8)
        guard b.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        let dateSep: Set<UInt8> = [0x3A, 0x2D]  // ':' '-'
        guard dateSep.contains(b[4]), dateSep.contains(b[7]), b[10] == 0x20 || b[10] == 0x54,
              b[13] == 0x3A, b[16] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1, (1...12).contains(month), (1...31).contains(day),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        return Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Int64(era * 146_097 + doe - 719_468)
    }
}
