;;; pickerd.el --- Pick photos from pickerd, the photo-picker daemon  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Files: pickerd.el (this one: connection, library functions, inserting picks; load it),
;; pickerd-tables.el (the protocol's tables), pickerd-wire.el (the wire codec, which loads the
;; tables) and pickerd-pick.el (the `pickerd-pick' UI), all loaded by this one.
;;
;; Speaks pickerd's protocol (docs/PROTOCOL.md, version 1) over its Unix socket: no
;; `pickerctl' processes, no external packages.
;;
;;   M-x pickerd-pick      album list | photo list | image; SPC picks, RET inserts the picks
;;                         at point in the buffer you came from (org, markdown or plain paths).
;;   (pickerd-albums)      => ("All Photos" "2024/Kyoto" ...)
;;   (pickerd-selection)   => absolute paths of the session's picks
;;   (pickerd-request 'status '((session . "emacs")))  => the reply's fields, an alist
;;   (pickerd-request-async 'getImage FIELDS (lambda (fields err) ...))  => id, at once
;;   (pickerd-request 'getImage '((session . "emacs") (format . symbols) (flags . 2)
;;                                (cells (cols . 80) (rows . 24))))  => terminal text in `data'
;;
;; The wire codec walks one table, `pickerd-messages': each message is a list of (FIELD . KIND),
;; read and written by the same two functions.  Decoded payloads are alists keyed by the
;; field names of PROTOCOL.md.  Errors are signalled as `pickerd-error' with the daemon's
;; code, name and message plus a hint in Emacs terms.  Unknown error codes and event kinds
;; from a newer daemon are kept (as numbers, and as events of kind `unknown' with the raw
;; payload), never a decode failure.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pickerd-wire)
(require 'url-util)
(declare-function org-link-make-string "ol" (link &optional description))

(defgroup pickerd nil
  "Pick photos from the pickerd daemon."
  :group 'multimedia
  :prefix "pickerd-")

(defcustom pickerd-socket nil
  "Socket of the daemon.
nil: $PICKER_SOCKET, else $XDG_RUNTIME_DIR/pickerd.sock, else
/tmp/pickerd-UID/pickerd.sock."
  :type '(choice (const :tag "Default" nil) file))

(defcustom pickerd-session nil
  "Name of the session `pickerd-pick' and `pickerd-selection' use.
nil: $PICKER_SESSION, else \"emacs\" (see `pickerd-session-name')."
  :type '(choice (const :tag "$PICKER_SESSION, else \"emacs\"" nil) string))

(defcustom pickerd-timeout 30
  "Seconds to wait for a reply."
  :type 'number)

(defcustom pickerd-insert-format 'auto
  "How `pickerd-pick' inserts the picks.
`auto': org-mode [[file:PATH]], markdown ![](PATH), else the path;
`org', `markdown', `path' force one; a function is called with the
list of absolute paths and the buffer, and returns the text to insert."
  :type '(choice (const auto) (const org) (const markdown) (const path) function))

(defcustom pickerd-max-selection 10
  "Most picks a session created by `pickerd-pick' allows."
  :type 'integer)

;;;; The connection

(defun pickerd-session-name ()
  "The session to use: `pickerd-session', else $PICKER_SESSION, else \"emacs\".
Empty values count as unset (the rule pickerctl and the other clients follow)."
  (let ((env (getenv "PICKER_SESSION")))
    (cond ((and pickerd-session (not (string-empty-p pickerd-session))) pickerd-session)
          ((and env (not (string-empty-p env))) env)
          (t "emacs"))))

(cl-defstruct (pickerd-conn (:constructor pickerd--make-conn))
  process buffer (next-id 1) (replies (make-hash-table)) lost capabilities
  (max-reply pickerd-max-reply-frame) (events nil) event-function (subscription 0)
  (callbacks (make-hash-table)))

(defun pickerd-default-socket ()
  "The socket path: `pickerd-socket', else $PICKER_SOCKET, ...
else $XDG_RUNTIME_DIR/pickerd.sock, else /tmp/pickerd-UID/pickerd.sock."
  (let ((env (getenv "PICKER_SOCKET")) (runtime (getenv "XDG_RUNTIME_DIR")))
    (cond (pickerd-socket pickerd-socket)
          ((and env (not (string-empty-p env))) env)
          ((and runtime (not (string-empty-p runtime))) (expand-file-name "pickerd.sock" runtime))
          (t (format "/tmp/pickerd-%d/pickerd.sock" (user-uid))))))

(defun pickerd-connect (&optional socket on-hello)
  "A new connection to the daemon on SOCKET, handshake done.
SOCKET defaults to `pickerd-default-socket'.  With ON-HELLO (a function
of CONN and ERROR-DATA, nil on success) the handshake is asynchronous:
the connection is returned at once and ON-HELLO called when it is answered."
  (let* ((path (or socket (pickerd-default-socket)))
         (attrs (file-attributes path 'integer)))
    (unless attrs
      (signal 'pickerd-error
              (pickerd--error-data 0 (format "pickerd is not running on %s" path) 0
                                   (format "start it (`pickerd --socket %s &') or set `pickerd-socket'" path))))
    ;; No SO_PEERCRED from Lisp: the socket file must at least be ours.
    (unless (= (file-attribute-user-id attrs) (user-uid))
      (signal 'pickerd-error
              (pickerd--error-data 9 (format "the socket %s belongs to uid %d, not to you"
                                             path (file-attribute-user-id attrs)))))
    (let* ((buffer (generate-new-buffer " *pickerd-conn*"))
           (conn (pickerd--make-conn :buffer buffer))
           (proc (condition-case err
                     (make-network-process :name "pickerd" :family 'local :service path
                                           :coding 'binary :noquery t
                                           :filter #'pickerd--filter :sentinel #'pickerd--sentinel)
                   (file-error
                    (kill-buffer buffer)
                    (signal 'pickerd-error
                            (pickerd--error-data 0 (format "pickerd is not running on %s (%s)" path
                                                           (error-message-string err))
                                                 0 (format "start it (`pickerd --socket %s &')" path)))))))
      (with-current-buffer buffer (set-buffer-multibyte nil))
      (set-process-query-on-exit-flag proc nil)
      (process-put proc 'pickerd-conn conn)
      (setf (pickerd-conn-process conn) proc)
      (if on-hello
          (pickerd--hello-async conn on-hello)
        (condition-case err
            (pickerd--take-capabilities conn (pickerd-request 'hello (pickerd--hello-fields) conn))
          (error (pickerd-close conn) (signal (car err) (cdr err))))))))

(defun pickerd--hello-fields ()
  `((version . ,pickerd-protocol-version) (client_name . "pickerd.el")))

(defun pickerd--take-capabilities (conn caps)
  "Keep the helloReply CAPS on CONN; return CONN."
  (setf (pickerd-conn-capabilities conn) caps
        (pickerd-conn-max-reply conn) (alist-get 'max_reply_frame caps))
  conn)

(defun pickerd--hello-async (conn on-hello)
  "Send hello on CONN without waiting for it.
ON-HELLO gets (CONN nil), or (CONN ERROR-DATA) for a refusal.
Requests sent meanwhile are pipelined behind it (answered in order)."
  (pickerd-request-async 'hello (pickerd--hello-fields)
                         (lambda (caps err)
                           (if err (pickerd--lose conn err) (pickerd--take-capabilities conn caps))
                           (funcall on-hello conn err))
                         conn)
  conn)

(defun pickerd-close (conn)
  "Close CONN."
  (when (process-live-p (pickerd-conn-process conn))
    (delete-process (pickerd-conn-process conn)))
  (when (buffer-live-p (pickerd-conn-buffer conn))
    (kill-buffer (pickerd-conn-buffer conn)))
  (unless (pickerd-conn-lost conn)
    (setf (pickerd-conn-lost conn) (pickerd--error-data 0 "the connection is closed"))))

(defun pickerd--lose (conn data)
  (unless (pickerd-conn-lost conn) (setf (pickerd-conn-lost conn) data))
  (when (process-live-p (pickerd-conn-process conn))
    (delete-process (pickerd-conn-process conn))))

(defun pickerd--sentinel (proc _event)
  (let ((conn (process-get proc 'pickerd-conn)))
    (when (and conn (not (process-live-p proc)) (not (pickerd-conn-lost conn)))
      (setf (pickerd-conn-lost conn) (pickerd--error-data 0 "pickerd closed the connection")))))

(defun pickerd--filter (proc chunk)
  "The process filter: CHUNK goes to PROC's connection."
  (let ((conn (process-get proc 'pickerd-conn)))
    (when conn (pickerd--receive conn chunk))))

(defun pickerd--receive (conn chunk)
  "Append CHUNK to CONN's unibyte buffer; route every whole frame in it.
Partial input stays buffered (\"need more\"); a bad length loses CONN."
  (when (buffer-live-p (pickerd-conn-buffer conn))
    (with-current-buffer (pickerd-conn-buffer conn)
      (goto-char (point-max))
      (insert (if (multibyte-string-p chunk) (string-to-unibyte chunk) chunk))
      (condition-case err
          (let ((max (pickerd-conn-max-reply conn)) end)
            ;; The header is checked first; the frame is copied out only once it is whole.
            (while (and (>= (buffer-size) 4)
                        (progn (pickerd-parse-frame (buffer-substring-no-properties 1 5) max)
                               (setq end (pickerd--frame-end))
                               (>= (buffer-size) end)))
              (let ((frame (pickerd-parse-frame (buffer-substring-no-properties 1 (1+ end)) max)))
                (delete-region 1 (1+ end))
                (pickerd--route conn frame))))
        (pickerd-wire-error
         (pickerd--lose conn (pickerd--error-data 1 (format "the server sent a bad frame: %s"
                                                            (plist-get (cdr err) :message)))))))))

(defun pickerd--frame-end ()
  "Bytes of the frame at the start of the current (unibyte) buffer.
4 (its header) when the length is bad."
  (let ((len (pickerd--read-uint (cons (buffer-substring-no-properties 1 5) 0) 4)))
    (if (< len 5) 4 (+ 4 len))))

(defun pickerd--route (conn frame)
  (pcase-let ((`(,type ,id ,payload ,_) frame))
    (cond
     ((/= 0 (logand type #x80))
      ;; Events: kept only for the current subscription; an unreadable one is skipped,
      ;; it must not fail an unrelated request.
      (when (= id (pickerd-conn-subscription conn))
        (let ((event (condition-case nil (pickerd-decode-event type id payload)
                       (pickerd-wire-error nil))))
          (when event
            (if (pickerd-conn-event-function conn)
                (with-demoted-errors "pickerd event handler: %S"
                  (funcall (pickerd-conn-event-function conn) event))
              (setf (pickerd-conn-events conn)
                    (append (pickerd-conn-events conn) (list event))))))))
     ((and (= id 0) (= type #x03))
      (let ((e (condition-case nil (pickerd-decode-payload type payload)
                 (pickerd-wire-error '((code . 1) (message . "unreadable connection error"))))))
        (pickerd--lose conn (pickerd--error-data (alist-get 'code e) (alist-get 'message e)))))
     ((gethash id (pickerd-conn-callbacks conn))
      (let ((callback (gethash id (pickerd-conn-callbacks conn))))
        (remhash id (pickerd-conn-callbacks conn))
        (pickerd--answer-callback callback type payload id)))
     (t (puthash id (cons type payload) (pickerd-conn-replies conn))))))

(defun pickerd--answer-callback (callback type payload id)
  "Call CALLBACK with the reply's fields and nil, or nil and the error's data."
  (let ((result (condition-case err
                    (let ((fields (pickerd-decode-payload type payload)))
                      (if (= type #x03)
                          (list nil (pickerd--error-data (alist-get 'code fields)
                                                         (alist-get 'message fields) id))
                        (list fields nil)))
                  (pickerd-wire-error (list nil (pickerd--error-data 1 (plist-get (cdr err) :message) id))))))
    (with-demoted-errors "pickerd callback: %S"
      (apply callback result))))

(defun pickerd-send (type fields &optional conn)
  "Send request TYPE (number or name such as `albums') with FIELDS.
Return its id.
Wait for the reply with `pickerd-wait': requests can be pipelined."
  (let* ((conn (or conn (pickerd-default-connection)))
         (type (pickerd-message-type type))
         (payload (if (stringp fields) fields (pickerd-encode-payload type fields)))
         (id (pickerd-conn-next-id conn)))
    (when (pickerd-conn-lost conn) (signal 'pickerd-error (pickerd-conn-lost conn)))
    (when (> (+ 5 (length payload)) pickerd-max-request-frame)
      (signal 'pickerd-error (pickerd--error-data 3 (format "request of %d bytes exceeds the maximum of %d bytes"
                                                            (+ 5 (length payload)) pickerd-max-request-frame))))
    (setf (pickerd-conn-next-id conn) (if (< id #xFFFFFFFF) (1+ id) 1))
    (condition-case err
        (process-send-string (pickerd-conn-process conn) (pickerd-frame type id payload))
      (error (pickerd--lose conn (pickerd--error-data 0 (format "cannot send to pickerd: %s"
                                                                (error-message-string err))))
             (signal 'pickerd-error (pickerd-conn-lost conn))))
    id))

(defun pickerd-wait (id &optional conn timeout)
  "Wait for the reply to request ID on CONN and return its fields (an alist).
An `error' reply signals `pickerd-error' (data: :code :name :message :id :hint)."
  (let* ((conn (or conn (pickerd-default-connection)))
         (proc (pickerd-conn-process conn))
         (deadline (+ (float-time) (or timeout pickerd-timeout)))
         reply)
    (while (not (setq reply (gethash id (pickerd-conn-replies conn))))
      (when (pickerd-conn-lost conn) (signal 'pickerd-error (pickerd-conn-lost conn)))
      (when (> (float-time) deadline)
        (signal 'pickerd-error (pickerd--error-data 0 (format "no reply to request %d within %s s"
                                                              id (or timeout pickerd-timeout))
                                                    id)))
      (accept-process-output proc 0.05 nil t))
    (remhash id (pickerd-conn-replies conn))
    (let ((fields (condition-case err (pickerd-decode-payload (car reply) (cdr reply))
                    (pickerd-wire-error
                     (signal 'pickerd-error (pickerd--error-data 1 (plist-get (cdr err) :message) id))))))
      (if (= (car reply) #x03)
          (signal 'pickerd-error (pickerd--error-data (alist-get 'code fields)
                                                      (alist-get 'message fields) id))
        fields))))

(defun pickerd-request (type payload &optional conn)
  "Send request TYPE with PAYLOAD; return the reply's fields (an alist).
PAYLOAD is an alist of PROTOCOL.md fields.  TYPE is a message number
or name (`ping', `albums', `selectAlbum'...).  Synchronous, on CONN
\(default: `pickerd-default-connection').
A `format' is a number or a name of `pickerd-formats': `png', `jpeg',
`webp', or for a terminal `sixel' and `symbols' (UTF-8 text in `data';
symbols needs cells: `getImage' and `preview' take (flags . 2) and
\(cells (cols . C) (rows . R)), each 1...1000)."
  (let ((conn (or conn (pickerd-default-connection))))
    (pickerd-wait (pickerd-send type payload conn) conn)))

(defun pickerd-request-async (type payload callback &optional conn)
  "Send request TYPE with PAYLOAD; return its id at once.
CALLBACK is called from the process filter with (FIELDS nil) for a
reply, or (nil ERROR-DATA) for an `error' reply (data as in
`pickerd-error').  Emacs does not wait: the picker loads images so."
  (let* ((conn (or conn (pickerd-default-connection)))
         (id (pickerd-send type payload conn)))
    (puthash id callback (pickerd-conn-callbacks conn))
    id))

(defvar pickerd--default-connection nil)

(defun pickerd-default-connection ()
  "The shared connection of the library functions, opened when needed.
pickerd closes a connection left idle for `pickerd --idle-timeout' seconds
\(60 by default): what already arrived is read first, so such a close is seen
and a new connection opened instead of writing into the closed one."
  (when (and pickerd--default-connection
             (not (pickerd-conn-lost pickerd--default-connection))
             (process-live-p (pickerd-conn-process pickerd--default-connection)))
    (accept-process-output (pickerd-conn-process pickerd--default-connection) 0 nil t))
  ;; The close may be seen by the process status before the sentinel has marked the connection
  ;; lost (a loaded machine): a process that is not live is as good as lost.
  (unless (and pickerd--default-connection
               (not (pickerd-conn-lost pickerd--default-connection))
               (process-live-p (pickerd-conn-process pickerd--default-connection)))
    (setq pickerd--default-connection (pickerd-connect)))
  pickerd--default-connection)

(defun pickerd-subscribe (conn session &optional library function)
  "Subscribe CONN to SESSION's events (and the library's when LIBRARY).
FUNCTION, when given, is called with each event alist; else events queue in
`pickerd-conn-events'."
  (let ((id (pickerd-send 'subscribe `((session . ,(or session "")) (flags . ,(if library 1 0))) conn)))
    (setf (pickerd-conn-subscription conn) id
          (pickerd-conn-event-function conn) function
          (pickerd-conn-events conn) nil)
    (pickerd-wait id conn)
    id))

(defun pickerd-subscribe-async (conn session library function callback)
  "Subscribe CONN to SESSION's events (the library's too when LIBRARY).
Asynchronous: FUNCTION is called with each event alist, CALLBACK as for
`pickerd-request-async' when the subscription is answered.  Returns the
request's id."
  (let ((id (pickerd-request-async 'subscribe `((session . ,(or session "")) (flags . ,(if library 1 0)))
                                   callback conn)))
    (setf (pickerd-conn-subscription conn) id
          (pickerd-conn-event-function conn) function
          (pickerd-conn-events conn) nil)
    id))

;;;; Library functions

(defun pickerd-albums ()
  "The album names, \"All Photos\" first."
  (mapcar (lambda (a) (alist-get 'name a))
          (alist-get 'albums (pickerd-request 'albums nil))))

(defun pickerd-selection (&optional session)
  "Absolute paths of SESSION's picks, in pick order.
SESSION defaults to `pickerd-session-name'."
  (mapcar (lambda (p) (alist-get 'absolute_path p))
          (alist-get 'photos (pickerd-request 'selection `((session . ,(or session (pickerd-session-name))))))))

(defun pickerd-photo-info (&optional photo session)
  "PHOTO's details (`photoInfo'), an alist keyed as PROTOCOL.md's photoInfoReply.
PHOTO is a file name or a 1-based index in SESSION's album (default
`pickerd-session'); nil for the current photo.  `gps' says only whether
the file holds a position, never the position.  `raw_companion' is the
relative path of the camera RAW listed as one photo with this JPEG (a
RAW+JPEG pair), nil when it has none or the daemon predates the field."
  (let* ((info (pickerd-request 'photoInfo `((session . ,(or session pickerd-session)) (photo . ,photo)
                                             (extensions . ((,pickerd-raw-companion-tag . ""))))))
         (raw (alist-get pickerd-raw-companion-tag (alist-get 'extensions info))))
    (cons (cons 'raw_companion (and raw (> (length raw) 0) (decode-coding-string raw 'utf-8))) info)))

(defun pickerd-clear-selection (&optional session)
  "Unpick every photo of SESSION (default `pickerd-session-name')."
  (interactive)
  (pickerd-request 'clearSelection `((session . ,(or session (pickerd-session-name)))))
  nil)

(defun pickerd-png-size (data)
  "(WIDTH . HEIGHT) from PNG bytes DATA's IHDR, or nil when DATA is not a PNG."
  (when (and (>= (length data) 24)
             (string= (substring data 0 8) (unibyte-string #x89 ?P ?N ?G 13 10 26 10))
             (string= (substring data 12 16) "IHDR"))
    (cons (pickerd--read-uint (cons data 16) 4) (pickerd--read-uint (cons data 20) 4))))

;;;; Inserting picks

(defun pickerd--insert-style (buffer)
  (with-current-buffer buffer
    (cond ((derived-mode-p 'org-mode) 'org)
          ((or (derived-mode-p 'markdown-mode 'gfm-mode)
               (and buffer-file-name (string-match-p "\\.\\(md\\|markdown\\)\\'" buffer-file-name)))
           'markdown)
          (t 'path))))

(defun pickerd--link-path (path)
  "PATH percent-encoded as a link target: every byte that could end a
Markdown link or start markup (`)', `]', `[', `<', `>', space, newline,
backslash...) is %XX, so a file name cannot break out of the link."
  (url-hexify-string path (append '(?/) url-unreserved-chars)))

(defun pickerd--org-link (path)
  "An org file link to PATH that no name can end or extend: control
characters percent-encoded (a link is one line), then brackets and
backslashes escaped by `org-link-make-string'."
  (require 'ol)
  (org-link-make-string
   (concat "file:" (replace-regexp-in-string
                    "[[:cntrl:]]" (lambda (c) (format "%%%02X" (aref c 0))) path t t))))

(defun pickerd-format-picks (paths buffer)
  "The text that inserts PATHS into BUFFER, following `pickerd-insert-format'."
  (if (functionp pickerd-insert-format)
      (funcall pickerd-insert-format paths buffer)
    (let ((style (if (eq pickerd-insert-format 'auto) (pickerd--insert-style buffer)
                   pickerd-insert-format)))
      (mapconcat (lambda (p)
                   (pcase style
                     ('org (pickerd--org-link p))
                     ('markdown (format "![](%s)" (pickerd--link-path p)))
                     (_ p)))
                 paths "\n"))))

(defun pickerd-insert-picks (paths buffer &optional position)
  "Insert PATHS into BUFFER at POSITION, formatted for its mode.
POSITION defaults to BUFFER's point."
  (with-current-buffer buffer
    (save-excursion
      (when position (goto-char position))
      (insert (pickerd-format-picks paths buffer)))))

(provide 'pickerd)

;; The picker UI (`pickerd-pick') lives in pickerd-pick.el, which requires this file.
(cl-eval-when (load eval)
  (require 'pickerd-pick))

;;; pickerd.el ends here
