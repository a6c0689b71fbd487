package tui

import tea "charm.land/bubbletea/v2"

// saveQueue is the one save queue of the TUI: values a person entered on
// screen wait here, in order, until their durable save (a journal append
// or a decision-log record, fsync'd) has returned. Saves run one at a
// time as commands outside Update; a screen shows a value as saved only
// after its savedMsg arrived without an error.
type saveQueue[T any] struct {
	// save writes one value durably; it runs in a command.
	save     func(T) error
	pending  []T
	inFlight bool
}

// savedMsg reports the end of one save of a saveQueue[T]: the value and
// the save's error.
type savedMsg[T any] struct {
	v   T
	err error
}

func newSaveQueue[T any](save func(T) error) *saveQueue[T] { return &saveQueue[T]{save: save} }

// push queues v and starts its save when none is running.
func (q *saveQueue[T]) push(v T) tea.Cmd {
	q.pending = append(q.pending, v)
	return q.flush()
}

// flush starts the save of the oldest pending value if none is running.
func (q *saveQueue[T]) flush() tea.Cmd {
	if q.inFlight || len(q.pending) == 0 {
		return nil
	}
	q.inFlight = true
	v, save := q.pending[0], q.save
	return func() tea.Msg { return savedMsg[T]{v: v, err: save(v)} }
}

// done takes in the end of the running save. After a failed save nothing
// later is saved: the queue is dropped so that a screen shows only what is
// on disk. The returned command starts the next save.
func (q *saveQueue[T]) done(m savedMsg[T]) tea.Cmd {
	q.inFlight = false
	if len(q.pending) > 0 {
		q.pending = q.pending[1:]
	}
	if m.err != nil {
		q.pending = nil
		return nil
	}
	return q.flush()
}

// latest returns the newest pending value for which match reports true.
func (q *saveQueue[T]) latest(match func(T) bool) (T, bool) {
	for i := len(q.pending) - 1; i >= 0; i-- {
		if match(q.pending[i]) {
			return q.pending[i], true
		}
	}
	var zero T
	return zero, false
}

// len counts the values not yet saved (including the running save).
func (q *saveQueue[T]) len() int { return len(q.pending) }
