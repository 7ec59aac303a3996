;;; pickerd-tables.el --- pickerd's protocol tables: messages, error codes, formats, session changes  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el; load that (`(require 'pickerd)'), not this file.
;;
;; The protocol's tables (docs/PROTOCOL.md, version 1), as data: message numbers, names
;; and fields (`pickerd-messages', one list of (FIELD . KIND) a message), the request
;; types, error codes, image formats and session changes, with the lookups by number and
;; name.  pickerd-wire.el is the codec that walks them.  tests/pickerd-wire-test.el checks
;; these tables against docs/protocol-tables.json (the Swift declaration), so a number or
;; name that drifts fails a test.

;;; Code:

(require 'cl-lib)

;;;; The tables


(defconst pickerd-protocol-version 1)
(defconst pickerd-max-request-frame (* 1024 1024))
(defconst pickerd-max-reply-frame (* 256 1024 1024))

(defconst pickerd--session-state
  '((name . string) (title . string) (width . u32) (height . u32) (max_selection . u16)
    (selection_count . u16) (album . string) (album_index . u32) (photo . string)
    (photo_index . u32) (photo_count . u32) (message . string)))
(defconst pickerd--library-info
  '((root . string) (album_count . u32) (photo_count . u32) (scan_state . u8)
    (scanned_at . i64) (skipped_count . u32)))
(defconst pickerd--scan-progress
  '((state . u8) (files_done . u32) (files_expected . u32) (elapsed_ms . u32)))
(defconst pickerd-formats
  '((1 . jpeg) (2 . png) (3 . webp) (6 . sixel) (7 . symbols))
  "Image formats by number.  `sixel' and `symbols' are output only: UTF-8
terminal text (PROTOCOL.md, \"Terminal formats\"); `symbols' needs cells.
A `format' field of a payload is a number or one of these names (or `jpg').")
(defconst pickerd-photo-formats
  '((1 . jpeg) (2 . png) (3 . webp) (4 . heic) (5 . avif) (8 . gif) (9 . jxl) (10 . raw))
  "Photo (input) formats by number: what the library may hold.  The same
numbering as `pickerd-formats' (PROTOCOL.md, \"Image formats\"); `heic',
`avif', `gif', `jxl' and `raw' are decode-only, so never an output format.")
(defconst pickerd--choice
  '(struct ((id . string) (label . string)
            (options . (list (struct ((id . string) (label . string)))))
            (value . string)))
  "One of a session's choices (PROTOCOL.md, choicesReply).")
(defconst pickerd-max-cells 1000 "Terminal columns and rows are each 1...1000.")
(defconst pickerd-raw-companion-tag 1
  "The extension tag of photoInfo's raw_companion (PROTOCOL.md).
An empty request entry asks; the reply's entry is the relative path
of the RAW of a RAW+JPEG pair listed as this JPEG, empty for none.")

(defun pickerd-format-code (format)
  "FORMAT (a number, or a name in `pickerd-formats' or `jpg') as its number."
  (let ((name (if (stringp format) (intern (downcase format)) format)))
    (cond ((integerp name) name)
          ((null name) 0)
          ((eq name 'jpg) 1)
          ((car (rassq name pickerd-formats)))
          (t (error "pickerd: unknown image format %S (jpeg, png, webp; sixel or symbols for a terminal)"
                    format)))))

(defun pickerd-format-name (code)
  "The name of image format CODE, a symbol.
`format-N' for a code this client does not know."
  (or (alist-get code pickerd-formats) (alist-get code pickerd-photo-formats)
      (intern (format "format-%d" code))))

(defconst pickerd--photo
  '((index . u32) (name . string) (path . string) (width . u32) (height . u32) (bytes . u64)
    (format . format) (date . i64) (date_source . u8)))
(defconst pickerd--image '((format . format) (width . u32) (height . u32) (data . blob)))
(defconst pickerd--cells
  `((cols . (range u16 1 ,pickerd-max-cells)) (rows . (range u16 1 ,pickerd-max-cells))))
(defconst pickerd--session-only '((session . string)))
(defconst pickerd--rational '(struct ((numerator . u32) (denominator . u32)))
  "An EXIF rational: 0/0 is unknown.")

(defconst pickerd-messages
  `((#x01 hello ((version . u16) (client_name . string)))
    (#x02 helloReply ((version . u16) (server_version . string) (max_request_frame . u32)
                      (max_reply_frame . u32) (input_formats . (list format))
                      (output_formats . (list format))))
    (#x03 error ((code . u16) (message . string)))
    (#x04 ping ())
    (#x05 pong ((server_version . string)))
    (#x06 libraryInfo ())
    (#x07 libraryInfoReply ,pickerd--library-info)
    (#x08 scanProgress ())
    (#x09 scanProgressReply ,pickerd--scan-progress)
    (#x10 sessionNew ((name . string) (width . u32) (height . u32) (max_selection . u16)
                      (title . string)))
    (#x11 sessionState ,pickerd--session-state)
    (#x12 sessionList ())
    (#x13 sessionListReply ((sessions . (list (struct ,pickerd--session-state)))))
    (#x14 sessionShow ,pickerd--session-only)
    (#x16 sessionResize ((session . string) (width . u32) (height . u32)))
    (#x18 sessionClose ,pickerd--session-only)
    (#x19 sessionClosed ,pickerd--session-only)
    (#x20 albums ())
    (#x21 albumsReply ((albums . (list (struct ((index . u32) (name . string)
                                                (photo_count . u32)))))))
    (#x22 selectAlbum ((session . string) (album . selector)))
    (#x24 photos ((session . string) (sort . u8)))
    (#x25 photosReply ((album . string) (photos . (list (struct ,pickerd--photo)))))
    (#x26 selectPhoto ((session . string) (photo . selector)))
    (#x28 stepPhoto ((session . string) (direction . u8)))
    (#x2a status ,pickerd--session-only)
    (#x2c setSort ((session . string) (sort . u8)))
    ;; Optional trailing flags: bit 0 asks for the reply's broken list.
    (#x2e photosPage ((session . string) (offset . u32) (limit . u32)
                      (trailing . (trailing 1 ((flags . u8))))))
    (#x2f photosPageReply ((album . string) (sort . u8) (total . u32) (offset . u32)
                           (photos . (list (struct ,pickerd--photo)))
                           ;; Only when asked: the rows known broken, with why.
                           (broken . (tail (list (struct ((index . u32) (reason . string))))))))
    ;; flags bit 1: the terminal cell size follows (symbols/sixel output).
    (#x30 getImage ((session . string) (format . format) (quality . u8) (flags . u8)
                    (cells . (if-flag 2 ,pickerd--cells))))
    (#x31 image ,pickerd--image)
    ;; photo: nil (kind 0) for the session's current photo.  Later fields: the extension area.
    (#x32 photoInfo ((session . string) (photo . opt-selector) (extensions . extensions)))
    (#x33 photoInfoReply ((path . string) (name . string) (format . format) (width . u32)
                          (height . u32) (bytes . i64) (date . i64) (date_source . u8)
                          (camera_make . string) (camera_model . string) (lens . string)
                          (exposure_time . ,pickerd--rational) (f_number . ,pickerd--rational)
                          (focal_length . ,pickerd--rational) (iso . u32)
                          (colour_profile . string) (gps . bool) (extensions . extensions)))
    (#x40 toggle ((session . string) (photo . selector)))
    (#x42 selection ,pickerd--session-only)
    (#x43 selectionReply ((max_selection . u16)
                          (photos . (list (struct ((album . string) (name . string)
                                                   (width . u32) (height . u32)
                                                   (path . string)
                                                   (absolute_path . string)))))))
    (#x44 clearSelection ,pickerd--session-only)
    ;; flags bit 2: an output format follows; bit 1: the terminal cells (sixel/symbols pages).
    (#x46 thumbnails ((session . string) (cell_size . u32) (page . u32) (flags . u8)
                      (output . (if-flag 4 ((format . format))))
                      (cells . (if-flag 2 ,pickerd--cells))))
    (#x47 thumbnailsReply ((width . u32) (height . u32) (cell_size . u32) (spacing . u32)
                           (padding . u32) (columns . u32) (rows . u32) (page . u32)
                           (pages . u32)
                           (cells . (list (struct ((index . u32) (name . string) (x . u32)
                                                   (y . u32) (size . u32) (flags . u8)))))
                           (image . (optional ,pickerd--image))))
    ;; Optional trailing flags (+ cells on bit 1): sent only when cells follow.
    (#x48 preview ((session . string) (width . u32) (height . u32) (format . format)
                   (quality . u8)
                   (trailing . (trailing 2 ((flags . u8) (cells . (if-flag 2 ,pickerd--cells)))))))
    (#x50 subscribe ((session . string) (flags . u8)))
    (#x51 subscribed ((session . string) (flags . u8)))
    (#x52 cancel ((request_id . u32)))
    (#x53 cancelReply ((request_id . u32) (found . bool)))
    (#x54 sessionFinish ((session . string) (outcome . u8)))
    ;; A session's choices (the host app's toggles): no options is a check box, value "true"/"false".
    (#x56 choices ,pickerd--session-only)
    (#x57 choicesReply ((choices . (list ,pickerd--choice))))
    (#x58 setChoice ((session . string) (choice . string) (value . string)))
    (#x80 sessionEvent ,(cons '(change . u8) pickerd--session-state))
    (#x81 libraryEvent ,pickerd--library-info)
    (#x82 libraryChangesEvent ((added . (list string)) (removed . (list string))
                               (changed . (list string))))
    (#x83 scanProgressEvent ,pickerd--scan-progress))
  "Every message of protocol version 1: (TYPE NAME FIELDS).
FIELDS is a list of (FIELD . KIND).  KIND is u8 u16 u32 u64 i64 bool
string blob selector opt-selector (kind 0 or nil: none given) extensions
\(the extension area: an alist (TAG . BYTES) to the end of the payload,
unknown tags kept) format (a u8; encoded from a number or a name in
`pickerd-formats', decoded as the number), (list KIND), (struct FIELDS),
\(optional FIELDS) (a bool, then FIELDS when it is 1), (if-flag BIT
FIELDS) (FIELDS follow when the preceding `flags' field has BIT set),
\(trailing BIT FIELDS) (optional trailing FIELDS, kept in the message's
own alist: encoded only when its `flags' has BIT, decoded only when
bytes remain, else flags 0 and flagged groups nil), (tail KIND) (an
optional last field: decoded only when bytes remain, else nil; encoded
only when non-nil) or (range KIND LO HI)
\(an integer that decodes with `out_of_range' outside LO...HI).")

(defconst pickerd-request-types
  '(#x01 #x04 #x06 #x08 #x10 #x12 #x14 #x16 #x18 #x20 #x22 #x24 #x26 #x28 #x2a #x2c #x2e
	 #x30 #x32 #x40 #x42 #x44 #x46 #x48 #x50 #x52 #x54 #x56 #x58)
  "The message types a client sends.")

(defconst pickerd-error-names
  '((1 . malformed_frame) (2 . unsupported_version) (3 . frame_too_large)
    (4 . unknown_message_type) (5 . handshake_required) (6 . invalid_argument) (7 . too_busy)
    (8 . cancelled) (9 . permission_denied) (10 . no_such_session) (11 . no_such_album)
    (12 . no_such_photo) (13 . nothing_selected) (14 . session_exists) (15 . out_of_range)
    (16 . selection_full) (17 . invalid_name) (18 . no_such_choice) (20 . corrupt_image) (21 . unsupported_image)
    (22 . image_too_large) (23 . io_error) (99 . internal))
  "The protocol's stable error codes.
A code not here is named `internal' (PROTOCOL.md).")

(defconst pickerd-session-changes
  '((1 . album) (2 . photo) (3 . selection) (4 . pane_size) (5 . closed) (6 . created) (7 . accepted) (8 . cancelled) (9 . choice)))

(defun pickerd-error-name (code)
  "The name of error CODE, a symbol.
`internal' for a code this client does not know."
  (or (alist-get code pickerd-error-names) 'internal))

(defun pickerd-message-type (type)
  "The number of message TYPE (a number, or a name symbol such as `albums')."
  (if (integerp type) type
    (or (car (cl-find type pickerd-messages :key #'cadr))
        (error "pickerd: no message named %s" type))))

(defun pickerd-message-name (type)
  "The name of message TYPE, or nil when this client does not know it."
  (cadr (assq type pickerd-messages)))

(provide 'pickerd-tables)
;;; pickerd-tables.el ends here
