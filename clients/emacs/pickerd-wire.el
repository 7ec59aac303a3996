;;; pickerd-wire.el --- pickerd's wire codec: messages, encoding, decoding, errors  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el; load that (`(require 'pickerd)'), not this file.
;;
;; The wire codec is one table, `pickerd-messages': each message is a list of (FIELD . KIND),
;; read and written by the same two functions.  Decoded payloads are alists keyed by the
;; field names of PROTOCOL.md.  Errors are signalled as `pickerd-error' with the daemon's
;; code, name and message plus a hint in Emacs terms.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

;;;; The wire codec

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
(defconst pickerd-max-cells 1000 "Terminal columns and rows are each 1...1000.")

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
	 #x30 #x32 #x40 #x42 #x44 #x46 #x48 #x50 #x52 #x54)
  "The message types a client sends.")

(defconst pickerd-error-names
  '((1 . malformed_frame) (2 . unsupported_version) (3 . frame_too_large)
    (4 . unknown_message_type) (5 . handshake_required) (6 . invalid_argument) (7 . too_busy)
    (8 . cancelled) (9 . permission_denied) (10 . no_such_session) (11 . no_such_album)
    (12 . no_such_photo) (13 . nothing_selected) (14 . session_exists) (15 . out_of_range)
    (16 . selection_full) (17 . invalid_name) (20 . corrupt_image) (21 . unsupported_image)
    (22 . image_too_large) (23 . io_error) (99 . internal))
  "The protocol's stable error codes.
A code not here is named `internal' (PROTOCOL.md).")

(defconst pickerd-session-changes
  '((1 . album) (2 . photo) (3 . selection) (4 . pane_size) (5 . closed) (6 . created) (7 . accepted) (8 . cancelled)))

(defconst pickerd-hints
  '((selection_full . "unpick a photo with SPC in the photo list (M-x pickerd-pick),\
or M-x pickerd-clear-selection")
    (nothing_selected . "choose an album (RET in the album list) and a photo first")
    (no_such_session . "M-x pickerd-pick creates the session (`pickerd-session')")
    (no_such_album . "choose one of (pickerd-albums)")
    (no_such_photo . "the album changed: press g in the photo list to reload it")
    (session_exists . "reuse it: M-x pickerd-pick attaches to an existing session")
    (out_of_range . "use a value inside the range the message states")
    (too_busy . "wait for your pending requests (pickerd-wait) before sending more")
    (unsupported_version . "update pickerd.el to the daemon's protocol version")
    (permission_denied . "run Emacs as the user that runs pickerd"))
  "How to fix an error, by name, in Emacs terms.
The daemon's message says what is wrong.")

(define-error 'pickerd-error "pickerd")
(define-error 'pickerd-wire-error "pickerd: bad bytes" 'pickerd-error)

(defun pickerd-error-name (code)
  "The name of error CODE, a symbol.
`internal' for a code this client does not know."
  (or (alist-get code pickerd-error-names) 'internal))

(defun pickerd--error-data (code message &optional id hint)
  "The data of a `pickerd-error': a plist with :code :name :message :id :hint."
  (let ((name (pickerd-error-name code)))
    (list :code code :name name :message message :id (or id 0)
          :hint (or hint (alist-get name pickerd-hints)))))

(defun pickerd--wire-error (code message)
  (signal 'pickerd-wire-error (pickerd--error-data code message)))

(defun pickerd-error-message (err)
  "A one-line text for ERR, a caught `pickerd-error'.
The daemon's message, then the hint."
  (let ((data (cdr err)))
    (concat (format "%s (%s): %s" (plist-get data :name) (plist-get data :code)
                    (plist-get data :message))
            (if (plist-get data :hint) (format " [hint: %s]" (plist-get data :hint)) ""))))

(defun pickerd-message-type (type)
  "The number of message TYPE (a number, or a name symbol such as `albums')."
  (if (integerp type) type
    (or (car (cl-find type pickerd-messages :key #'cadr))
        (error "pickerd: no message named %s" type))))

(defun pickerd-message-name (type)
  "The name of message TYPE, or nil when this client does not know it."
  (cadr (assq type pickerd-messages)))

;;;;; Encoding

(defun pickerd--uint (value size)
  "VALUE as SIZE big-endian bytes, a unibyte string."
  (let ((bytes nil) (v (logand value (1- (ash 1 (* 8 size))))))
    (dotimes (_ size)
      (push (logand v 255) bytes)
      (setq v (ash v -8)))
    (apply #'unibyte-string bytes)))

(defun pickerd--utf8 (s)
  (encode-coding-string (or s "") 'utf-8-unix t))

(defun pickerd--encode-value (kind value)
  (pcase kind
    ('u8 (pickerd--uint (or value 0) 1))
    ('format (pickerd--uint (pickerd-format-code value) 1))
    ('u16 (pickerd--uint (or value 0) 2))
    ('u32 (pickerd--uint (or value 0) 4))
    ((or 'u64 'i64) (pickerd--uint (or value 0) 8))
    ('bool (unibyte-string (if (and value (not (eq value 0))) 1 0)))
    ('string (let ((b (pickerd--utf8 value))) (concat (pickerd--uint (length b) 4) b)))
    ('blob (let ((b (or value ""))) (concat (pickerd--uint (length b) 4) b)))
    ('selector (cond ((integerp value) (concat (unibyte-string 2) (pickerd--uint value 4)))
                     ((stringp value) (concat (unibyte-string 1)
                                              (pickerd--encode-value 'string value)))
                     (t (error "pickerd: a selector is a name or a 1-based index, not %S"
                               value))))
    ('opt-selector (if value (pickerd--encode-value 'selector value) (unibyte-string 0)))
    ;; The extension area (PROTOCOL.md, "Extending a message"): tag:u8, len:u32, bytes, as given.
    ('extensions (apply #'concat (mapcar (lambda (e) (concat (pickerd--uint (car e) 1)
                                                              (pickerd--encode-value 'blob (cdr e))))
                                         (sort (copy-sequence value) (lambda (a b) (< (car a) (car b)))))))
    (`(list ,elem) (apply #'concat (pickerd--uint (length value) 4)
                          (mapcar (lambda (v) (pickerd--encode-value elem v)) value)))
    (`(struct ,fields) (pickerd--encode-fields fields value))
    (`(optional ,fields) (if value
                             (concat (unibyte-string 1) (pickerd--encode-fields fields value))
                           (unibyte-string 0)))
    ;; Not checked here: the daemon answers out_of_range.
    (`(range ,elem ,_lo ,_hi) (pickerd--encode-value elem value))
    (_ (error "pickerd: unknown field kind %S" kind))))

(defun pickerd--encode-fields (fields values)
  "FIELDS (a schema) of VALUES (an alist) as bytes.
Missing numbers are 0, missing strings empty."
  (apply #'concat
         (mapcar (lambda (field)
                   (pcase (cdr field)
                     (`(if-flag ,bit ,sub)
                      (if (/= 0 (logand (or (alist-get 'flags values) 0) bit))
                          (pickerd--encode-fields sub (alist-get (car field) values))
                        ""))
                     (`(trailing ,bit ,sub)
                      (if (/= 0 (logand (or (alist-get 'flags values) 0) bit))
                          (pickerd--encode-fields sub values)
                        ""))
                     (`(tail ,sub)
                      (let ((v (alist-get (car field) values)))
                        (if v (pickerd--encode-value sub v) "")))
                     (kind (pickerd--encode-value kind (alist-get (car field) values)))))
                 fields)))

(defun pickerd-encode-payload (type fields)
  "The payload of message TYPE (a number or name) from FIELDS, an alist."
  (let ((entry (assq (pickerd-message-type type) pickerd-messages)))
    (unless entry (error "pickerd: no message type %S" type))
    (pickerd--encode-fields (nth 2 entry) fields)))

(defun pickerd-frame (type id payload)
  "A whole frame: header of TYPE and ID, then PAYLOAD (unibyte)."
  (concat (pickerd--uint (+ 5 (length payload)) 4) (pickerd--uint type 1)
          (pickerd--uint id 4) payload))

(defun pickerd-encode-frame (type id fields)
  "The frame of message TYPE with request ID and FIELDS (an alist)."
  (let ((type (pickerd-message-type type)))
    (pickerd-frame type id (pickerd-encode-payload type fields))))

;;;;; Decoding

(defun pickerd--take (r n)
  "N bytes from reader R, a cons (DATA . POS)."
  (let ((pos (cdr r)))
    (when (> (+ pos n) (length (car r)))
      (pickerd--wire-error 1 (format "payload ends early (wanted %d bytes at offset %d of %d)"
                                     n pos (length (car r)))))
    (setcdr r (+ pos n))
    (substring (car r) pos (+ pos n))))

(defun pickerd--read-uint (r size)
  (let ((s (pickerd--take r size)) (v 0))
    (dotimes (i size) (setq v (+ (* v 256) (aref s i))))
    v))

(defun pickerd--min-size (kind)
  "Fewest bytes KIND takes.
A list count that cannot fit is refused before reading on."
  (pcase kind
    ((or 'u8 'bool 'format 'opt-selector) 1) ('extensions 0) ('u16 2) ((or 'u32 'string 'blob) 4) ((or 'u64 'i64) 8) ('selector 5)
    (`(struct ,fields) (apply #'+ (mapcar (lambda (f) (if (memq (car-safe (cdr f)) '(if-flag trailing tail)) 0
                                                        (pickerd--min-size (cdr f))))
                                          fields)))
    (`(range ,elem ,_lo ,_hi) (pickerd--min-size elem))
    (_ 4)))

(defun pickerd--decode-value (kind r)
  (pcase kind
    ((or 'u8 'format) (pickerd--read-uint r 1))
    ('u16 (pickerd--read-uint r 2))
    ('u32 (pickerd--read-uint r 4))
    ('u64 (pickerd--read-uint r 8))
    ('i64 (let ((v (pickerd--read-uint r 8))) (if (>= v (ash 1 63)) (- v (ash 1 64)) v)))
    ('bool (let ((v (pickerd--read-uint r 1)))
             (if (> v 1) (pickerd--wire-error 1 (format "bool byte %d" v)) (= v 1))))
    ('string (let* ((raw (pickerd--take r (pickerd--read-uint r 4)))
                    (s (decode-coding-string raw 'utf-8-unix t)))
               ;; Invalid UTF-8 decodes to raw-byte characters (#x3FFF80...): refuse it.
               (when (cl-some (lambda (c) (>= c #x3FFF80)) s)
                 (pickerd--wire-error 1 "string is not UTF-8"))
               s))
    ('blob (pickerd--take r (pickerd--read-uint r 4)))
    ('selector (pcase (pickerd--read-uint r 1)
                 (1 (pickerd--decode-value 'string r))
                 (2 (pickerd--read-uint r 4))
                 (k (pickerd--wire-error 1 (format "selector kind %d" k)))))
    ('opt-selector (if (and (< (cdr r) (length (car r))) (= 0 (aref (car r) (cdr r))))
                       (progn (setcdr r (1+ (cdr r))) nil)
                     (pickerd--decode-value 'selector r)))
    ;; To the end of the payload; a tag this client does not know is kept, never an error.
    ('extensions (let (area)
                   (while (< (cdr r) (length (car r)))
                     (let ((tag (pickerd--read-uint r 1)))
                       (when (assq tag area)
                         (pickerd--wire-error 1 (format "extension %d given twice" tag)))
                       (push (cons tag (pickerd--decode-value 'blob r)) area)))
                   (nreverse area)))
    (`(list ,elem)
     (let ((n (pickerd--read-uint r 4)))
       (when (> (* n (pickerd--min-size elem)) (- (length (car r)) (cdr r)))
         (pickerd--wire-error 1 (format "list of %d elements cannot fit in the payload" n)))
       (let (out) (dotimes (_ n) (push (pickerd--decode-value elem r) out)) (nreverse out))))
    (`(struct ,fields) (pickerd--decode-fields fields r))
    (`(optional ,fields) (and (pickerd--decode-value 'bool r) (pickerd--decode-fields fields r)))
    (`(range ,elem ,lo ,hi)
     (let ((v (pickerd--decode-value elem r)))
       (unless (<= lo v hi)
         (pickerd--wire-error 15 (format "%d is outside %d...%d" v lo hi)))
       v))
    (_ (error "pickerd: unknown field kind %S" kind))))

(defun pickerd--decode-fields (fields r)
  (let (out)
    (dolist (field fields)
      (pcase (cdr field)
        (`(trailing ,_bit ,sub)
         (dolist (f (if (< (cdr r) (length (car r)))
                        (pickerd--decode-fields sub r)
                      ;; Absent: flags 0, flagged groups nil.
                      (mapcar (lambda (f) (cons (car f) (if (eq (car-safe (cdr f)) 'if-flag) nil 0)))
                              sub)))
           (push f out)))
        (`(tail ,sub)
         (push (cons (car field) (and (< (cdr r) (length (car r))) (pickerd--decode-value sub r))) out))
        (kind
         (push (cons (car field)
                     (pcase kind
                       (`(if-flag ,bit ,sub)
                        (and (/= 0 (logand (or (alist-get 'flags out) 0) bit))
                             (pickerd--decode-fields sub r)))
                       (_ (pickerd--decode-value kind r))))
               out))))
    (nreverse out)))

(defun pickerd-decode-payload (type payload)
  "The fields (an alist) of message TYPE from PAYLOAD, consumed exactly.
Signals `pickerd-wire-error' (code 4 for a type not in the table, 1
for bad bytes, 15 for a ranged field such as terminal cells outside
its range)."
  (let ((entry (assq type pickerd-messages)))
    (unless entry (pickerd--wire-error 4 (format "unknown message type 0x%02x" type)))
    (let* ((r (cons payload 0))
           (fields (pickerd--decode-fields (nth 2 entry) r)))
      (unless (= (cdr r) (length payload))
        (pickerd--wire-error 1 (format "%d unexpected bytes after the payload"
                                       (- (length payload) (cdr r)))))
      fields)))

(defun pickerd-parse-frame (data &optional max-length)
  "The first frame in unibyte DATA: (TYPE ID PAYLOAD CONSUMED).
nil when it is incomplete.
A length below 5 or above MAX-LENGTH (default `pickerd-max-reply-frame') signals
`pickerd-wire-error' before anything else is read."
  (when (>= (length data) 4)
    (let ((len (pickerd--read-uint (cons data 0) 4)))
      (cond ((< len 5)
             (pickerd--wire-error 1 (format "frame length %d is below the 5-byte header" len)))
            ((> len (or max-length pickerd-max-reply-frame))
             (pickerd--wire-error 3 (format "frame of %d bytes exceeds the maximum of %d bytes"
                                            len (or max-length pickerd-max-reply-frame))))
            ((>= (length data) (+ 4 len))
             (let ((r (cons data 4)))
               (list (pickerd--read-uint r 1) (pickerd--read-uint r 4)
                     (substring data 9 (+ 4 len)) (+ 4 len))))))))

(defun pickerd-decode-request (data)
  "DATA, one whole request frame, as the daemon reads it: (TYPE ID FIELDS)."
  (let ((f (pickerd-parse-frame data pickerd-max-request-frame)))
    (unless (and f (= (nth 3 f) (length data)))
      (pickerd--wire-error 1 "not exactly one frame"))
    (unless (memq (car f) pickerd-request-types)
      (pickerd--wire-error 4 (format "0x%02x is not a request" (car f))))
    (list (car f) (nth 1 f) (pickerd-decode-payload (car f) (nth 2 f)))))

(defun pickerd-decode-event (type id payload)
  "An event frame as an alist: (kind . NAME) (subscription . ID), fields.
A session event's change is a symbol (`selection'...) or `change-N'.
An event type this client does not know is kept: kind `unknown', with
its (type . N) and raw (payload . BYTES)."
  (let ((name (pickerd-message-name type)))
    (if (not name)
        `((kind . unknown) (subscription . ,id) (type . ,type) (payload . ,payload))
      (let ((fields (pickerd-decode-payload type payload)))
        (when (assq 'change fields)
          (let ((c (alist-get 'change fields)))
            (setf (alist-get 'change fields)
                  (or (alist-get c pickerd-session-changes) (intern (format "change-%d" c))))))
        `((kind . ,name) (subscription . ,id) ,@fields)))))

(provide 'pickerd-wire)
;;; pickerd-wire.el ends here
