import type { TeamData, TemplateProps } from 'ir-site/templates';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';
import { Portrait } from '../components/Portrait.js';

export default function TeamTemplate(props: TemplateProps<TeamData>) {
  const { pageData, strings } = props;
  // Only the page's first image loads eagerly (a team page's body has none before the grid).
  const firstWithPhoto = pageData.members.findIndex((m) => m.photo);
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} />
      {pageData.members.length > 0 && (
        <ul className="team-grid">
          {pageData.members.map((member, index) => (
            <li key={member.handle} className="team-card">
              {member.photo ? (
                // No alt text: the name is the card's heading, right beside it; a screen reader would say it twice.
                <Portrait photo={member.photo} alt="" eager={index === firstWithPhoto} className="team-card__photo" />
              ) : (
                <div className="team-card__photo team-card__photo--empty" aria-hidden="true" />
              )}
              <h2 className="team-card__name">
                <a href={member.path}>{member.name}</a>
              </h2>
              <p className="team-card__role">{member.role}</p>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
