import { areaIcons } from './areaIcons';
import { areas } from './areas';

describe('area icons', () => {
  it('give every area of the list an icon, and no icon to an area that is not there', () => {
    expect(Object.keys(areaIcons).sort()).toEqual(areas.map((area) => area.id).sort());
  });
});
