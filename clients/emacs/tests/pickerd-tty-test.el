;;; pickerd-tty-test.el --- M-x pickerd-pick in `emacs -nw' inside tmux, as a user  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by clients/emacs/run-tests.sh.  Starts a tmux server of its own (its socket in a
;; temporary folder) running `emacs -nw' on a truecolor terminal, types M-x pickerd-pick,
;; an album, a photo, SPC and RET, and reads the screen with `tmux capture-pane -e': the
;; image pane must hold 24-bit colour cells, follow a resize of the terminal, and the pick
;; must land in the org buffer.  Issue 25 #1: this pane used to read "[PNG 34x46 ...: this
;; display shows no images]" in a session of 100x46 px.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'pickerd-test-support)

(defvar pickerd-tty-test--sock nil "The tmux socket of the running test.")

(defun pickerd-tty-test--tmux (&rest args)
  "Run tmux ARGS on the test's server; its output (nil when it failed)."
  (with-temp-buffer
    (when (= 0 (apply #'call-process "tmux" nil t nil "-S" pickerd-tty-test--sock args))
      (buffer-string))))

(defun pickerd-tty-test--screen ()
  "The pane's screen with its colours (SGR escapes), as capture-pane -e gives it."
  (or (pickerd-tty-test--tmux "capture-pane" "-p" "-e" "-t" "t") ""))

(defun pickerd-tty-test--rgb-cells (screen from-column)
  "How many 24-bit background colours SCREEN sets at or right of FROM-COLUMN."
  (let ((n 0))
    (dolist (line (split-string screen "\n"))
      (let ((pos 0) (col 0))
        ;; Walk the line: escapes take no column, every other character one.
        (while (< pos (length line))
          (if (eq (string-match "\e\\[[0-9;:]*m" line pos) pos)
              (progn
                (when (and (>= col from-column)
                           (string-match-p "48[;:]2[;:]" (match-string 0 line)))
                  (cl-incf n))
                (setq pos (match-end 0)))
            (cl-incf col)
            (cl-incf pos)))))
    n))

(defun pickerd-tty-test--wait-screen (predicate)
  "Wait (at most `pickerd-timeout' s) until PREDICATE holds for the screen."
  (or (pickerd-test-wait-for (lambda () (funcall predicate (pickerd-tty-test--screen))))
      (progn (message "the screen:\n%s" (or (pickerd-tty-test--tmux "capture-pane" "-p" "-t" "t") ""))
             nil)))

(defun pickerd-tty-test--keys (&rest keys)
  (apply #'pickerd-tty-test--tmux "send-keys" "-t" "t" keys))

(ert-deftest pickerd-pick-in-a-terminal-emacs-shows-the-photo-in-24-bit-colour ()
  (pickerd-test-with-daemon
   (skip-unless (executable-find "tmux"))
   (let* ((dir (make-temp-file "pkel" t))
          (pickerd-tty-test--sock (expand-file-name "tmux.sock" dir))
          (session (pickerd-test-unique "tty"))
          (notes (expand-file-name "notes.org" dir))
          (here (expand-file-name ".." pickerd-test-dir)))
     (unwind-protect
         (progn
           (pickerd-tty-test--tmux
            "-f" "/dev/null" "new-session" "-d" "-s" "t" "-x" "120" "-y" "32"
            (mapconcat #'shell-quote-argument
                       (list "env" (concat "HOME=" dir) "TERM=tmux-256color" "COLORTERM=truecolor"
                             (concat "PICKER_SESSION=" session)
                             (concat "PICKER_SOCKET=" (getenv "PICKER_SOCKET"))
                             (expand-file-name invocation-name invocation-directory)
                             "-nw" "-Q" "--eval" "(setq native-comp-deferred-compilation nil)" "-L" here "-l" "pickerd"
                             ;; Nothing written into the folder once the test removes it.
                             "--eval" "(setq auto-save-default nil auto-save-list-file-prefix nil)"
                             notes)
                       " "))
           (should (pickerd-tty-test--wait-screen (lambda (s) (string-match-p "notes\\.org" s))))
           (pickerd-tty-test--keys "M-x")
           (pickerd-tty-test--keys "-l" "pickerd-pick")
           (pickerd-tty-test--keys "Enter")
           (should (pickerd-tty-test--wait-screen (lambda (s) (string-match-p "All Photos" s))))
           ;; $PICKER_SESSION is the session Emacs opened.
           (should (= 0 (pickerd-test-pickerctl "--session" session "status")))
           (pickerd-tty-test--keys "n" "Enter")           ; the second album
           (should (pickerd-tty-test--wait-screen (lambda (s) (string-match-p "\\[ \\] " s))))
           (pickerd-tty-test--keys "n")                   ; a photo: the picture follows point
           ;; The image pane is the right third (from column 60 or so of 120): coloured cells.
           (should (pickerd-tty-test--wait-screen
                    (lambda (s) (> (pickerd-tty-test--rgb-cells s 60) 200))))
           (let ((before (pickerd-request 'status `((session . ,session)))))
             ;; A bigger terminal: the session's pane and the picture follow.
             (pickerd-tty-test--tmux "resize-window" "-t" "t" "-x" "180" "-y" "48")
             (should (pickerd-test-wait-for
                      (lambda () (> (alist-get 'width (pickerd-request 'status `((session . ,session))))
                                    (alist-get 'width before)))))
             (should (pickerd-tty-test--wait-screen
                      (lambda (s) (> (pickerd-tty-test--rgb-cells s 120) 100)))))
           (pickerd-tty-test--keys "Space")
           (should (pickerd-tty-test--wait-screen (lambda (s) (string-match-p "\\[1\\]" s))))
           (pickerd-tty-test--keys "Enter")
           (should (pickerd-tty-test--wait-screen (lambda (s) (string-match-p "inserted 1 photo into notes\\.org" s))))
           ;; Org shows the link as its target; the windows are notes.org alone again.
           (let ((text (pickerd-tty-test--tmux "capture-pane" "-p" "-t" "t")))
             (should (string-match-p "^file:/.*\\.\\(jpg\\|webp\\)$" text))
             (should-not (string-match-p "pickerd-albums" text))))
       (let ((pid (ignore-errors
                    (string-to-number (pickerd-tty-test--tmux "display-message" "-p" "-t" "t" "#{pane_pid}")))))
         (pickerd-tty-test--tmux "kill-server")
         (when (and pid (> pid 0))
           (pickerd-test-wait-for (lambda () (not (process-attributes pid))))))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session))))
       (delete-directory dir t)))))

(provide 'pickerd-tty-test)
;;; pickerd-tty-test.el ends here
