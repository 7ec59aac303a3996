;;; pickerd-wire-test.el --- ERT tests of the codec and framing (no daemon)  -*- lexical-binding: t; -*-

;;; Commentary:

;; The codec and the framing, no daemon: every vector of docs/PROTOCOL.md, refused
;; frames, unknown values kept, frames fed a byte at a time.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'pickerd-test-support)

;;;; The codec

(ert-deftest pickerd-every-protocol-vector-round-trips ()
  "Each vector decodes to its named message and re-encodes byte for byte; every type has one."
  (let ((vectors (cl-remove-if-not (lambda (v) (eq (car v) 'vector)) (pickerd-test-vectors)))
        (seen nil))
    (should (>= (length vectors) 60))
    (dolist (v vectors)
      (let* ((title (nth 1 v)) (bytes (nth 2 v))
             (frame (pickerd-parse-frame bytes)))
        (should frame)
        (should (= (nth 3 frame) (length bytes)))
        (should (equal (symbol-name (pickerd-message-name (car frame))) (car (split-string title))))
        (should (equal (format "id=%d" (nth 1 frame)) (cadr (split-string title))))
        ;; One byte short is "need more", not an error.
        (should-not (pickerd-parse-frame (substring bytes 0 -1)))
        (let ((fields (pickerd-decode-payload (car frame) (nth 2 frame))))
          (should (equal (pickerd-encode-frame (car frame) (nth 1 frame) fields) bytes)))
        (push (car frame) seen)))
    (should-not (cl-set-difference (mapcar #'car pickerd-messages) seen))))

(ert-deftest pickerd-every-refused-vector-fails-with-its-code ()
  (let ((refused (cl-remove-if-not (lambda (v) (eq (car v) 'refused)) (pickerd-test-vectors))))
    (should (>= (length refused) 5))
    (dolist (v refused)
      (let ((err (should-error (pickerd-decode-request (nth 2 v)) :type 'pickerd-wire-error)))
        (should (equal (symbol-name (plist-get (cdr err) :name))
                       (car (split-string (nth 1 v)))))))))

(ert-deftest pickerd-unknown-error-codes-and-event-kinds-are-kept ()
  (should (eq (pickerd-error-name 16) 'selection_full))
  (should (eq (pickerd-error-name 4242) 'internal))
  (should (= (plist-get (pickerd--error-data 4242 "new") :code) 4242))
  (let ((event (pickerd-decode-event #x9a 30 (unibyte-string 1 2 3))))
    (should (eq (alist-get 'kind event) 'unknown))
    (should (= (alist-get 'type event) #x9a))
    (should (equal (alist-get 'payload event) (unibyte-string 1 2 3))))
  ;; A session change a newer daemon adds is kept as change-N.
  (let* ((state (pickerd-encode-payload #x80 '((change . 42) (name . "s") (width . 100))))
         (event (pickerd-decode-event #x80 30 state)))
    (should (eq (alist-get 'change event) 'change-42))
    (should (equal (alist-get 'name event) "s"))))

;; The tables against the Swift declaration (issue 22 item 4): docs/protocol-tables.json, which
;; DeclarationTableTests proves equal to the declaration.  A drift on either side fails here.
(ert-deftest pickerd-tables-are-the-swift-declaration ()
  (let* ((file (expand-file-name "../../../docs/protocol-tables.json" pickerd-test-dir))
         (declared (with-temp-buffer
                     (insert-file-contents file)
                     (json-parse-buffer :object-type 'alist)))
         (numbered (lambda (section)
                     (sort (mapcar (lambda (e) (cons (string-to-number (symbol-name (car e))) (cdr e)))
                                   (alist-get section declared))
                           (lambda (a b) (< (car a) (car b))))))
         (names (lambda (table) (sort (mapcar (lambda (e) (cons (car e) (symbol-name (cdr e)))) table)
                                      (lambda (a b) (< (car a) (car b)))))))
    (should (equal (mapcar (lambda (e) (cons (car e) (alist-get 'name (cdr e)))) (funcall numbered 'messages))
                   (sort (mapcar (lambda (m) (cons (car m) (symbol-name (cadr m)))) (copy-sequence pickerd-messages))
                         (lambda (a b) (< (car a) (car b))))))
    (should (equal (mapcar #'car (cl-remove-if-not (lambda (e) (equal (alist-get 'direction (cdr e)) "request"))
                                                   (funcall numbered 'messages)))
                   (sort (copy-sequence pickerd-request-types) #'<)))
    (should (equal (funcall numbered 'errors) (funcall names pickerd-error-names)))
    (should (equal (funcall numbered 'photo_formats) (funcall names pickerd-photo-formats)))
    (should (equal (funcall numbered 'output_formats) (funcall names pickerd-formats)))
    (should (equal (funcall numbered 'session_changes) (funcall names pickerd-session-changes)))
    ;; The tables checked are pickerd-tables.el's: each is defined there, not in the codec.
    (dolist (table '(pickerd-messages pickerd-request-types pickerd-error-names pickerd-photo-formats
                     pickerd-formats pickerd-session-changes))
      (should (equal (file-name-base (symbol-file table 'defvar)) "pickerd-tables")))))

(ert-deftest pickerd-an-extension-a-newer-server-adds-is-kept ()
  "A field added later travels in the extension area: kept byte for byte; an older server sends none."
  (let* ((fields '((path . "A/p.jpg") (name . "p.jpg") (format . 1) (width . 2) (height . 3) (bytes . 4)
                   (date . 5) (date_source . 1) (gps . t)))
         (older (pickerd-encode-frame #x33 7 fields))
         (newer (pickerd-encode-frame #x33 7 (cons (cons 'extensions (list (cons 9 (unibyte-string 1 2)))) fields))))
    (should (equal (substring newer 9) (concat (substring older 9) (unibyte-string 9 0 0 0 2 1 2))))
    (dolist (case (list (cons older nil) (cons newer (list (cons 9 (unibyte-string 1 2))))))
      (let* ((frame (pickerd-parse-frame (car case)))
             (decoded (pickerd-decode-payload (car frame) (nth 2 frame))))
        (should (equal (alist-get 'extensions decoded) (cdr case)))
        (should (equal (alist-get 'path decoded) "A/p.jpg"))
        (should (equal (pickerd-encode-frame (car frame) (nth 1 frame) decoded) (car case)))))))

(ert-deftest pickerd-raw-companion-blocks-round-trip ()
  "photoInfo's raw_companion extension: PROTOCOL.md's extended blocks decode with the entry and re-encode."
  (let ((expected '(("photoInfo id=70 asking for raw_companion" . "")
                    ("photoInfoReply id=70 with raw_companion" . "2024/Kyoto/IMG_2.CR2")))
        (n 0))
    (dolist (v (pickerd-test-vectors))
      (let ((want (assoc (nth 1 v) expected)))
        (when (and (eq (car v) 'extended) want)
          (setq n (1+ n))
          (let* ((frame (pickerd-parse-frame (nth 2 v)))
                 (fields (pickerd-decode-payload (car frame) (nth 2 frame))))
            (should (equal (symbol-name (pickerd-message-name (car frame))) (car (split-string (nth 1 v)))))
            (should (equal (alist-get pickerd-raw-companion-tag (alist-get 'extensions fields)) (cdr want)))
            (should (equal (pickerd-encode-frame (car frame) (nth 1 frame) fields) (nth 2 v)))))))
    (should (= n 2))))

;; Values a newer daemon adds (PROTOCOL.md, "Open values") survive decode and re-encode.
(ert-deftest pickerd-newer-values-round-trip-byte-for-byte ()
  (let ((row '((index . 1) (name . "a.new") (path . "a.new") (width . 2) (height . 3) (bytes . 4)
               (format . 77) (date . 5) (date_source . 9))))
    (dolist (m `((#x03 ((code . 4242) (message . "a newer code")))
                 (#x02 ((version . 1) (server_version . "pickerd 9") (max_request_frame . 1)
                        (max_reply_frame . 2) (input_formats . (1 77)) (output_formats . (2 42))))
                 (#x31 ((format . 42) (width . 1) (height . 1) (data . ,(unibyte-string 1))))
                 (#x2f ((album . "All Photos") (sort . 9) (total . 1) (offset . 0) (photos . (,row))))
                 (#x07 ((root . "/p") (album_count . 1) (photo_count . 1) (scan_state . 5)))
                 (#x09 ((state . 5) (files_done . 1) (files_expected . 2) (elapsed_ms . 3)))
                 (#x80 ((change . 42) (name . "s") (width . 100)))))
      (let* ((bytes (pickerd-encode-payload (car m) (cadr m)))
             (back (pickerd-decode-payload (car m) bytes)))
        (dolist (field (cadr m))
          (unless (consp (cdr field))
            (should (equal (cons (car m) (alist-get (car field) back)) (cons (car m) (cdr field))))))
        (should (equal (pickerd-encode-payload (car m) back) bytes))))))

(ert-deftest pickerd-strings-are-utf-8-and-i64-is-signed ()
  (let ((bytes (pickerd-encode-payload 'sessionShow '((session . "旅行/京都")))))
    (should (= (length bytes) (+ 4 13)))
    (should (equal (alist-get 'session (pickerd-decode-payload #x14 bytes)) "旅行/京都")))
  (let ((info (pickerd-encode-payload #x07 '((root . "/") (scanned_at . -5)))))
    (should (= (alist-get 'scanned_at (pickerd-decode-payload #x07 info)) -5))))

;; preview's flags byte is optional trailing; terminal cells are 1...1000 each.
(ert-deftest pickerd-preview-flags-are-optional-trailing-and-cells-ranged ()
  (let* ((base '((session . "main") (width . 1920) (height . 1080) (format . jpeg) (quality . 0)))
         (old (pickerd-encode-payload 'preview base))
         (cells (append '((format . symbols) (flags . 2) (cells (cols . 120) (rows . 40))) base))
         (new (pickerd-encode-payload 'preview cells)))
    (should (= (length old) (+ 8 4 4 1 1)))
    (should (equal (alist-get 'format (pickerd-decode-payload #x48 old)) 1))
    (should (equal (alist-get 'flags (pickerd-decode-payload #x48 old)) 0))
    (should-not (alist-get 'cells (pickerd-decode-payload #x48 (concat old (unibyte-string 0)))))
    (should (equal (substring new (- (length old) 2))
                   (unibyte-string 7 0 2 0 #x78 0 #x28)))
    (let ((fields (pickerd-decode-payload #x48 new)))
      (should (= (alist-get 'format fields) 7))
      (should (equal (alist-get 'cells fields) '((cols . 120) (rows . 40))))
      (should (equal (pickerd-encode-payload 'preview fields) new)))
    (dolist (bad '(0 1001))
      (let ((err (should-error
                  (pickerd-decode-payload
                   #x48 (pickerd-encode-payload 'preview (cons `(cells (cols . 120) (rows . ,bad)) cells)))
                  :type 'pickerd-wire-error)))
        (should (eq (plist-get (cdr err) :name) 'out_of_range))))
    (let ((err (should-error (pickerd-decode-payload #x48 (concat old (unibyte-string 2 0 #x78)))
                             :type 'pickerd-wire-error)))
      (should (eq (plist-get (cdr err) :name) 'malformed_frame))))
  (should (= (pickerd-format-code 'sixel) 6))
  (should (= (pickerd-format-code "JPG") 1))
  (should (eq (pickerd-format-name 7) 'symbols))
  (should (eq (pickerd-format-name 42) 'format-42))
  (should (eq (pickerd-format-name 4) 'heic))
  (should (eq (pickerd-format-name 5) 'avif))
  (should (eq (pickerd-format-name 9) 'jxl))
  ;; Decode-only formats are names of photos, never an output format to ask for.
  (should-error (pickerd-format-code 'gif))
  (should-error (pickerd-format-code 'heic)))

;;;; Frame reassembly (the connection's receive step, without a socket)

(defun pickerd-test-offline-conn ()
  (let ((buffer (generate-new-buffer " *pickerd-test-conn*")))
    (with-current-buffer buffer (set-buffer-multibyte nil))
    (pickerd--make-conn :buffer buffer :subscription 30)))

(ert-deftest pickerd-frames-fed-one-byte-at-a-time-are-routed-whole ()
  "Every vector but the connection error, one byte per chunk: replies by id, events queued."
  (let* ((frames (cl-remove-if (lambda (v) (or (eq (car v) 'refused)
                                               (string-prefix-p "error id=0" (nth 1 v))))
                               (pickerd-test-vectors)))
         (stream (apply #'concat (mapcar (lambda (v) (nth 2 v)) frames)))
         (conn (pickerd-test-offline-conn))
         (want (make-hash-table))
         (events 0))
    (unwind-protect
        (progn
          (dotimes (i (length stream))
            (pickerd--receive conn (substring stream i (1+ i))))
          (dolist (v frames)
            (let ((f (pickerd-parse-frame (nth 2 v))))
              (if (/= 0 (logand (car f) #x80))
                  (cl-incf events)
                (puthash (nth 1 f) (cons (car f) (nth 2 f)) want))))
          (should-not (pickerd-conn-lost conn))
          (should (= 0 (buffer-size (pickerd-conn-buffer conn))))
          (should (= (length (pickerd-conn-events conn)) events))
          (should (= (hash-table-count (pickerd-conn-replies conn)) (hash-table-count want)))
          (maphash (lambda (id reply) (should (equal (gethash id (pickerd-conn-replies conn)) reply)))
                   want))
      (kill-buffer (pickerd-conn-buffer conn)))))

(ert-deftest pickerd-a-bad-length-from-the-server-loses-the-connection ()
  (dolist (case (list (cons (pickerd--uint 4 4) "below the 5-byte header")
                      (cons (pickerd--uint (1+ pickerd-max-reply-frame) 4) "exceeds the maximum")))
    (let ((conn (pickerd-test-offline-conn)))
      (unwind-protect
          (progn
            (pickerd--receive conn (car case))
            (should (eq (plist-get (pickerd-conn-lost conn) :name) 'malformed_frame))
            (should (string-match-p (cdr case) (plist-get (pickerd-conn-lost conn) :message))))
        (kill-buffer (pickerd-conn-buffer conn))))))

(provide 'pickerd-wire-test)
;;; pickerd-wire-test.el ends here
