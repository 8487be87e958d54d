import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-2W4BYMJP.js";import"./chunk-YGEVXJK7.js";import"./chunk-2ITRDZKB.js";import"./chunk-2O42GUHN.js";import"./chunk-Q2YW2U22.js";import"./chunk-F5X2UFR4.js";import"./chunk-S6LZZGEC.js";import"./chunk-7DOOPZ4R.js";import"./chunk-QQMVQEPJ.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
