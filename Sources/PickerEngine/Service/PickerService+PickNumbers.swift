/// The numbers on the grid's pick badges.
extension PickerService {
    /// Each picked photo's 1-based place in the session's pick list, counting only photos still
    /// in the library: the same order and numbers `selection` reports.
    func pickNumbers(of session: Session) -> [String: Int] {
        var numbers: [String: Int] = [:]
        for path in session.selection where library.photo(relativePath: path) != nil {
            numbers[path] = numbers.count + 1
        }
        return numbers
    }
}
