// Duration: the project's end date, goal and current collection round.
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../app/hooks';
import { notify } from '../../../components/noticesSlice';
import { FAILURES, failure } from '../../errors/failures';
import { useUpdateProjectMutation } from '../../projects/projectsApi';
import type { Project } from '../../projects/types';

export function DurationPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const project = useOutletContext<Project>();
  const [dateEnd, setDateEnd] = useState(project.date_end ?? '');
  const [goal, setGoal] = useState(String(project.goal_count));
  const [update, state] = useUpdateProjectMutation();
  return (
    <form
      className="card"
      data-testid="duration"
      onSubmit={(e) => {
        e.preventDefault();
        void update({ projectId: project.id, date_end: dateEnd, goal_count: Number(goal) || 0 })
          .unwrap()
          .then(
            () => dispatch(notify(t('project.saved'))),
            () => undefined,
          );
      }}
    >
      {state.error && <p className="banner error">{failure(state.error, FAILURES.projectSave)}</p>}
      <label>
        {t('project.dateEnd')}
        <input type="date" value={dateEnd} onChange={(e) => setDateEnd(e.target.value)} />
      </label>
      <label>
        {t('project.goal')}
        <input inputMode="numeric" value={goal} onChange={(e) => setGoal(e.target.value)} />
      </label>
      <button type="submit">{t('settings.save')}</button>
    </form>
  );
}
